import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';
import { DEFAULT_LAYOUT, normalizeLayout, type DashboardLayout } from '../dashboard-layout.js';

const key = ['dashboard', 'me'] as const;
const PATH = '/v1/practices/users/me/dashboard';

/** The signed-in user's saved layout; the default layout when none was saved yet. */
export function useDashboardLayout() {
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      try {
        return normalizeLayout(await apiRequest<unknown>({ path: PATH, signal }));
      } catch (error) {
        if (isApiError(error, 404)) return DEFAULT_LAYOUT;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
}

export function useSaveDashboardLayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (layout: DashboardLayout) => normalizeLayout(await apiRequest<unknown>({ method: 'PUT', path: PATH, body: layout })),
    onSuccess: (layout) => queryClient.setQueryData(key, layout),
  });
}
