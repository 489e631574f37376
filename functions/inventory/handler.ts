import { DrugSearchQueryV1, DrugSearchQueryV2 } from '../../shared/chart/code-sets.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import { INVENTORY_ROUTES } from './routes.js';
import { searchDrugs } from './search-drugs.js';

export const handler = groupHandler(INVENTORY_ROUTES, {
  'GET /v2/nationaldrugcodes/search': route({
    query: DrugSearchQueryV2,
    run: ({ query }) => searchDrugs(query.searchText, query.searchBy, query.limit),
  }),
  'GET /v1/nationaldrugcodes/search': route({
    query: DrugSearchQueryV1,
    run: ({ query }) => searchDrugs(query.searchTerm, query.searchBy, query.limit),
  }),
});
