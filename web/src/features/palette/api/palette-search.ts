import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';

export interface PaletteTemplate {
  templateId: string;
  templateName: string;
  status?: string;
}

/** Templates come with the notes release; until that API answers, the section stays empty. */
export function usePaletteTemplates(enabled: boolean) {
  return useQuery({
    queryKey: ['palette', 'templates'],
    queryFn: async ({ signal }) => {
      try {
        const body = await apiRequest<PaletteTemplate[] | { templates?: PaletteTemplate[]; items?: PaletteTemplate[] }>({
          path: '/v1/practices/templates',
          signal,
        });
        return Array.isArray(body) ? body : (body.templates ?? body.items ?? []);
      } catch (error) {
        if (isApiError(error) && (error.status === 404 || error.status === 403)) return [];
        throw error;
      }
    },
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  });
}
