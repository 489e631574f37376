import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { normalizeLayout, type DashboardLayout } from '../dashboard-layout.js';
import { DASHBOARD_PATH, dashboardKey, dashboardLayoutSchema } from './dashboard-api.js';

/** Saving comes with the editor (?edit=1), not with the dashboard's first screen. */
export function useSaveDashboardLayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (layout: DashboardLayout) =>
      normalizeLayout(await apiRequest({ method: 'PUT', path: DASHBOARD_PATH, body: layout }, dashboardLayoutSchema)),
    onSuccess: (layout) => queryClient.setQueryData(dashboardKey, layout),
  });
}
