import { backfillDatedList } from '../dated-list/dated-list-backfill.js';
import { FAX_LIST } from './fax-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app
 * stack): gives the faxes written before the list was paged their index keys, counts them in all
 * and per day, and marks the counts `listed`. Until this has run, the list reads every fax.
 */
export const backfillFaxListKeys = (practiceId: string): Promise<number> => backfillDatedList(FAX_LIST, practiceId);
