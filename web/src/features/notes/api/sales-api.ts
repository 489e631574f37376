import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ChargeItem, InventoryItem, InventorySettings } from '../../../../../shared/sales/sales-schema.js';
import { apiRequest } from '../../../lib/api-client.js';

const salesKeys = {
  chargeItems: (q: string) => ['sales', 'charge-items', q] as const,
  inventory: ['sales', 'inventory'] as const,
  settings: ['sales', 'inventory-settings'] as const,
};

/** provider/charge_items?q= under this product's API. */
export function useChargeItems(q: string) {
  return useQuery({
    queryKey: salesKeys.chargeItems(q),
    queryFn: async ({ signal }) => (await apiRequest<{ chargeItems: ChargeItem[] }>({ path: '/v1/inventories/charge-items', query: { q }, signal })).chargeItems,
    placeholderData: keepPreviousData,
  });
}

export function useInventory() {
  return useQuery({
    queryKey: salesKeys.inventory,
    queryFn: async ({ signal }) => (await apiRequest<{ items: InventoryItem[] }>({ path: '/v1/inventories', signal })).items,
  });
}

export function useInventorySettings() {
  return useQuery({
    queryKey: salesKeys.settings,
    queryFn: ({ signal }) => apiRequest<InventorySettings>({ path: '/v1/inventories/settings', signal }),
  });
}
