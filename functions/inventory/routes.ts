export const INVENTORY_ROUTES = ['GET /v2/nationaldrugcodes/search', 'GET /v1/nationaldrugcodes/search'] as const;
export type InventoryRouteKey = (typeof INVENTORY_ROUTES)[number];
