import { useQuery } from '@tanstack/react-query';
import type { TemplateExpansion } from '../../../../../shared/templates/template-schema.js';
import { TemplateExpansionAnswer, TemplateLinked, TemplateListAnswer } from '../../../../../shared/templates/template-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

export const templateKeys = { active: ['templates', 'active'] as const };

/** Only active templates are offered in the editor. */
export function useActiveTemplates(enabled: boolean) {
  return useQuery({
    queryKey: templateKeys.active,
    queryFn: async ({ signal }) => {
      const list = (await apiRequest({ path: '/v1/practices/templates', query: { status: 'active' }, signal }, TemplateListAnswer)).templates;
      return list.filter((t) => t.status === 'active');
    },
    enabled,
    staleTime: 60_000,
  });
}

/** The template body with every placeholder filled from the patient's chart. */
export async function expandTemplate(templateId: string, context: { patientId: string; noteId?: string }): Promise<TemplateExpansion> {
  return apiRequest({ method: 'POST', path: `/v1/templates/${encodeURIComponent(templateId)}/expand`, body: context }, TemplateExpansionAnswer);
}

/** Records that a template was applied to a note (spec notes §7: POST /v1/template-links). */
export async function linkTemplate(templateId: string, interactionId: string): Promise<void> {
  await apiRequest({ method: 'POST', path: '/v1/template-links', body: { templateId, interactionId } }, TemplateLinked);
}
