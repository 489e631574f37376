import type { DrugSearchResponse } from '../../shared/chart/code-sets.js';
import { drugCodes } from '../lib/code-sets/code-sets.js';

/** Drug search for the medication form: the imported FDA NDC directory, or the built-in generic list. */
export async function searchDrugs(text: string, searchBy: 'NAME' | 'NDC' | undefined, limit: number): Promise<DrugSearchResponse> {
  const { value, source } = await drugCodes();
  return { ...value.search(text, searchBy, limit), source };
}
