import { DrugSearchQueryV1, DrugSearchQueryV2 } from '../../shared/chart/code-sets.js';
import { ChargeItemQuery, InventorySettingsUpdate } from '../../shared/sales/sales-schema.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import { getInventorySettings, listInventory, putInventorySettings, searchChargeItems } from './inventory-repository.js';
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
  'GET /v1/inventories': route({
    run: async ({ auth }) => ({ items: await listInventory(auth.practiceId) }),
  }),
  // Spec notes §7 provider/charge_items?q=, under this product's API (beside the inventory: one greedy key for both reads).
  'GET /v1/inventories/charge-items': route({
    query: ChargeItemQuery,
    run: async ({ auth, query }) => ({ chargeItems: await searchChargeItems(auth.practiceId, query.q) }),
  }),
  'GET /v1/inventories/settings': route({
    run: ({ auth }) => getInventorySettings(auth.practiceId),
  }),
  'PUT /v1/inventories/settings': route({
    body: InventorySettingsUpdate,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => putInventorySettings(auth, body),
  }),
});
