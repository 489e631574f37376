import { DrugSearchQueryV1, DrugSearchQueryV2 } from '../../shared/chart/code-sets.js';
import { ChargeItemInput, ChargeItemParams } from '../../shared/sales/charge-item-input.js';
import { ChargeItemQuery, InventorySettingsUpdate } from '../../shared/sales/sales-schema.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import { InventoryCreateBody, InventoryIdParams, InventoryUpdateBody, RestocksQuery } from '../../shared/inventory/inventory-schema.js';
import {
  createChargeItem,
  createInventoryItem,
  deleteChargeItem,
  getInventorySettings,
  listInventory,
  listRestocks,
  putInventorySettings,
  requireInventoryItem,
  searchChargeItems,
  updateChargeItem,
  updateInventoryItem,
} from '../data/inventory/inventory-repository.js';
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
  // The billing catalog, kept by admins in settings.
  'POST /v1/inventories/charge-items': route({
    body: ChargeItemInput,
    permission: 'practice.settings.change',
    status: 201,
    run: ({ auth, body }) => createChargeItem(auth, body),
  }),
  'PUT /v1/inventories/charge-items/{chargeItemId}': route({
    params: ChargeItemParams,
    body: ChargeItemInput,
    permission: 'practice.settings.change',
    run: ({ auth, params, body }) => updateChargeItem(auth, params.chargeItemId, body),
  }),
  'DELETE /v1/inventories/charge-items/{chargeItemId}': route({
    params: ChargeItemParams,
    permission: 'practice.settings.change',
    status: 204,
    run: async ({ auth, params }) => {
      await deleteChargeItem(auth, params.chargeItemId);
    },
  }),
  'GET /v1/inventories/settings': route({
    run: ({ auth }) => getInventorySettings(auth.practiceId),
  }),
  'PUT /v1/inventories/settings': route({
    body: InventorySettingsUpdate,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => putInventorySettings(auth, body),
  }),
  // Spec shell §7.10 'GET /restocks', under the inventory's v1 base beside the settings: one item's stock history.
  'GET /v1/inventories/restocks': route({
    query: RestocksQuery,
    run: async ({ auth, query }) => ({ restocks: await listRestocks(auth, query.inventoryId) }),
  }),
  'POST /v2/inventories': route({ body: InventoryCreateBody, status: 201, run: ({ auth, body }) => createInventoryItem(auth, body) }),
  'PUT /v2/inventories': route({ body: InventoryUpdateBody, run: ({ auth, body }) => updateInventoryItem(auth, body) }),
  'GET /v2/inventories/{inventoryId}': route({ params: InventoryIdParams, run: ({ auth, params }) => requireInventoryItem(auth, params.inventoryId) }),
});
