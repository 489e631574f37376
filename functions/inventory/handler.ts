import { DrugSearchQueryV1, DrugSearchQueryV2 } from '../../shared/chart/code-sets.js';
import { ChargeItemQuery, InventoryItemInput, InventorySettingsUpdate } from '../../shared/sales/sales-schema.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import { createInventoryItem, getInventorySettings, listInventory, putInventorySettings, searchChargeItems } from './inventory-repository.js';
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
  'POST /v2/inventories': route({
    body: InventoryItemInput,
    status: 201,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => createInventoryItem(auth, body),
  }),
  // Spec notes §7 provider/charge_items?q=, under this product's API.
  'GET /v1/charge-items': route({
    query: ChargeItemQuery,
    run: async ({ auth, query }) => ({ chargeItems: await searchChargeItems(auth.practiceId, query.q) }),
  }),
  'GET /v1/practices/settings/inventory': route({
    run: ({ auth }) => getInventorySettings(auth.practiceId),
  }),
  'PUT /v1/practices/settings/inventory': route({
    body: InventorySettingsUpdate,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => putInventorySettings(auth, body),
  }),
});
