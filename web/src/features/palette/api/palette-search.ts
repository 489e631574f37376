import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';

export interface PaletteTemplate {
  templateId: string;
  templateName: string;
  status?: string;
}

/** The palette's templates; when the API refuses them, the section stays empty. */
export function usePaletteTemplates(enabled: boolean) {
  return useQuery({
    queryKey: ['palette', 'templates'],
    queryFn: async ({ signal }) => {
      try {
        // The schema comes with the answer: the palette is part of every screen, zod is not.
        const body = await apiRequest(
          { path: '/v1/practices/templates', signal },
          async () => (await import('../../../../../shared/templates/template-responses.js')).TemplateListAnswer,
        );
        return body.templates;
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
