import { useQuery } from '@tanstack/react-query';
import { Template, type TemplateExpansion } from '../../../../../shared/templates/template-schema.js';
import { apiRequest } from '../../../lib/api-client.js';

export const templateKeys = { active: ['templates', 'active'] as const };

/** Only active templates are offered in the editor. */
export function useActiveTemplates(enabled: boolean) {
  return useQuery({
    queryKey: templateKeys.active,
    queryFn: async ({ signal }) => {
      const body = await apiRequest<unknown>({ path: '/v1/practices/templates', query: { status: 'active' }, signal });
      const list = Array.isArray(body)
        ? body
        : ((body as { templates?: unknown[]; items?: unknown[] }).templates ?? (body as { items?: unknown[] }).items ?? []);
      return list.map((t) => Template.parse(t)).filter((t) => t.status === 'active');
    },
    enabled,
    staleTime: 60_000,
  });
}

/** The template body with every placeholder filled from the patient's chart. */
export async function expandTemplate(templateId: string, context: { patientId: string; noteId?: string }): Promise<TemplateExpansion> {
  return apiRequest<TemplateExpansion>({ method: 'POST', path: `/v1/templates/${encodeURIComponent(templateId)}/expand`, body: context });
}

/** Records that a template was applied to a note (spec notes §7: POST /v1/template-links). */
export async function linkTemplate(templateId: string, interactionId: string): Promise<void> {
  await apiRequest<unknown>({ method: 'POST', path: '/v1/template-links', body: { templateId, interactionId } });
}
