import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DrugSearchAnswer } from '../../../../../shared/chart/code-set-responses.js';
import { RestockList } from '../../../../../shared/inventory/inventory-responses.js';
import type { InventoryCreateBody, InventoryUpdateBody } from '../../../../../shared/inventory/inventory-schema.js';
import { InventoryItem, InventoryList, InventorySettings } from '../../../../../shared/sales/sales-schema.js';
import { apiRequest } from '../../../lib/api-client.js';

/** 'sales' is the root the note windows' pickers read the inventory under: a change here refreshes them too. */
export const inventoryKeys = {
  list: ['sales', 'inventory'] as const,
  item: (id: string) => ['sales', 'inventory', 'item', id] as const,
  restocks: (id: string) => ['sales', 'inventory', 'restocks', id] as const,
  settings: ['sales', 'inventory-settings'] as const,
  drugs: (q: string) => ['inventory', 'drug-search', q] as const,
};

export function useInventoryList() {
  return useQuery({
    queryKey: inventoryKeys.list,
    queryFn: async ({ signal }) => (await apiRequest({ path: '/v1/inventories', signal }, InventoryList)).items,
  });
}

export function useInventoryItem(inventoryId: string | null) {
  return useQuery({
    queryKey: inventoryKeys.item(inventoryId ?? ''),
    queryFn: ({ signal }) => apiRequest({ path: `/v2/inventories/${encodeURIComponent(inventoryId ?? '')}`, signal }, InventoryItem),
    enabled: Boolean(inventoryId),
  });
}

export function useRestocks(inventoryId: string | null) {
  return useQuery({
    queryKey: inventoryKeys.restocks(inventoryId ?? ''),
    queryFn: async ({ signal }) =>
      (await apiRequest({ path: '/v1/inventories/restocks', query: { inventoryId: inventoryId ?? '' }, signal }, RestockList)).restocks,
    enabled: Boolean(inventoryId),
  });
}

export function useInventorySettingsValues() {
  return useQuery({
    queryKey: inventoryKeys.settings,
    queryFn: ({ signal }) => apiRequest({ path: '/v1/inventories/settings', signal }, InventorySettings),
  });
}

export function useSaveInventorySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<InventorySettings>) => apiRequest({ method: 'PUT', path: '/v1/inventories/settings', body }, InventorySettings),
    onSuccess: (saved) => queryClient.setQueryData(inventoryKeys.settings, saved),
  });
}

export function useSaveInventoryItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InventoryCreateBody | InventoryUpdateBody) =>
      apiRequest({ method: 'inventoryId' in body ? 'PUT' : 'POST', path: '/v2/inventories', body }, InventoryItem),
    onSuccess: (saved) => {
      queryClient.setQueryData(inventoryKeys.item(saved.inventoryId), saved);
      void queryClient.invalidateQueries({ queryKey: inventoryKeys.list });
    },
  });
}

/** The chart's drug search (spec chart-data §3: more than 3 characters; by text, then by name when nothing is found). */
export function useDrugSearch(q: string) {
  return useQuery({
    queryKey: inventoryKeys.drugs(q),
    enabled: q.length > 3,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const first = await apiRequest({ path: '/v2/nationaldrugcodes/search', query: { searchText: q, limit: '8' }, signal }, DrugSearchAnswer);
      if (first.items.length) return first.items;
      return (await apiRequest({ path: '/v1/nationaldrugcodes/search', query: { searchTerm: q, searchBy: 'NAME', limit: '8' }, signal }, DrugSearchAnswer))
        .items;
    },
  });
}
