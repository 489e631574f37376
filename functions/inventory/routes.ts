export const INVENTORY_ROUTES = [
  'GET /v2/nationaldrugcodes/search',
  'GET /v1/nationaldrugcodes/search',
  'GET /v1/inventories',
  'POST /v2/inventories',
  'GET /v1/charge-items',
  'GET /v1/practices/settings/inventory',
  'PUT /v1/practices/settings/inventory',
] as const;
export type InventoryRouteKey = (typeof INVENTORY_ROUTES)[number];
