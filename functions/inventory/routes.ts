export const INVENTORY_ROUTES = [
  'GET /v2/nationaldrugcodes/search',
  'GET /v1/nationaldrugcodes/search',
  'GET /v1/inventories',
  'GET /v1/inventories/charge-items',
  'POST /v1/inventories/charge-items',
  'PUT /v1/inventories/charge-items/{chargeItemId}',
  'DELETE /v1/inventories/charge-items/{chargeItemId}',
  'GET /v1/inventories/settings',
  'PUT /v1/inventories/settings',
  'GET /v1/inventories/restocks',
  'POST /v2/inventories',
  'PUT /v2/inventories',
  'GET /v2/inventories/{inventoryId}',
] as const;
export type InventoryRouteKey = (typeof INVENTORY_ROUTES)[number];
