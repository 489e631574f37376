import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';
import { DASHBOARD_LAYOUT_REQUEST } from '../../../lib/first-screen-requests.js';
import { DEFAULT_LAYOUT, normalizeLayout } from '../dashboard-layout.js';

export const dashboardKey = ['dashboard', 'me'] as const;
export const DASHBOARD_PATH = DASHBOARD_LAYOUT_REQUEST.path;

/** The layout's schema comes with the answer, so zod is not on the dashboard's first screen. */
export const dashboardLayoutSchema = async () => (await import('../../../../../shared/practice/settings-responses.js')).DashboardLayoutRecord;

/** The signed-in user's saved layout; the default layout when none was saved yet. */
export function useDashboardLayout() {
  return useQuery({
    queryKey: dashboardKey,
    queryFn: async ({ signal }) => {
      try {
        return normalizeLayout(await apiRequest({ path: DASHBOARD_PATH, signal }, dashboardLayoutSchema));
      } catch (error) {
        if (isApiError(error, 404)) return DEFAULT_LAYOUT;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
}
