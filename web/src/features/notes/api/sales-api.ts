import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChargeItemList, InventoryItem, InventoryList, InventorySettings } from '../../../../../shared/sales/sales-schema.js';
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
    queryFn: async ({ signal }) => (await apiRequest({ path: '/v1/inventories/charge-items', query: { q }, signal }, ChargeItemList)).chargeItems,
    placeholderData: keepPreviousData,
  });
}

export function useInventory() {
  return useQuery({
    queryKey: salesKeys.inventory,
    queryFn: async ({ signal }) => (await apiRequest({ path: '/v1/inventories', signal }, InventoryList)).items,
  });
}

export function useInventorySettings() {
  return useQuery({
    queryKey: salesKeys.settings,
    queryFn: ({ signal }) => apiRequest({ path: '/v1/inventories/settings', signal }, InventorySettings),
  });
}

/**
 * Spec notes §7: the inventory item is read and its quantityInStock increased, with the reason; the
 * stock read is sent along, so a dispense in between is refused (409) instead of overwritten. A deleted
 * prescription's restock names the note, so it happens once and its restore takes the quantity out again.
 */
export async function restockInventoryItem(inventoryId: string, quantity: number, reasonForEditing: string, noteId?: string): Promise<InventoryItem> {
  const item = await apiRequest({ path: `/v2/inventories/${encodeURIComponent(inventoryId)}` }, InventoryItem);
  return apiRequest(
    {
      method: 'PUT',
      path: '/v2/inventories',
      body: {
        inventoryId,
        quantityInStock: item.quantityInStock + quantity,
        expectedQuantityInStock: item.quantityInStock,
        reasonForEditing,
        ...(noteId ? { noteId } : {}),
      },
    },
    InventoryItem,
  );
}
