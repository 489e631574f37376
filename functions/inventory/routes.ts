export const INVENTORY_ROUTES = [
  'GET /v2/nationaldrugcodes/search',
  'GET /v1/nationaldrugcodes/search',
  'GET /v1/inventories',
  'GET /v1/inventories/charge-items',
  'GET /v1/inventories/settings',
  'PUT /v1/inventories/settings',
] as const;
export type InventoryRouteKey = (typeof INVENTORY_ROUTES)[number];
