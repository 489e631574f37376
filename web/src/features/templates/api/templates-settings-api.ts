import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Template, type TemplateInput } from '../../../../../shared/templates/template-schema.js';
import { TemplateListAnswer, TemplateRemoved } from '../../../../../shared/templates/template-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

/** Shares the 'templates' root with the note editor's '/' menu, so a save there refreshes it here too. */
export const templateSettingsKeys = {
  all: ['templates'] as const,
  list: () => [...templateSettingsKeys.all, 'settings-list'] as const,
  detail: (templateId: string) => [...templateSettingsKeys.all, 'detail', templateId] as const,
};

const templatePath = (templateId?: string) => `/v1/practices/templates${templateId ? `/${encodeURIComponent(templateId)}` : ''}`;

/** GET /v1/practices/templates: every template the user may see (the practice's and their private ones). */
export function useTemplates() {
  return useQuery({
    queryKey: templateSettingsKeys.list(),
    queryFn: async ({ signal }) => {
      const body = await apiRequest({ path: templatePath(), signal }, TemplateListAnswer);
      return body.templates.sort((a, b) => a.templateName.localeCompare(b.templateName));
    },
  });
}

export function useTemplate(templateId: string | null) {
  return useQuery({
    queryKey: templateSettingsKeys.detail(templateId ?? ''),
    queryFn: async ({ signal }) => await apiRequest({ path: templatePath(templateId ?? ''), signal }, Template),
    enabled: Boolean(templateId),
  });
}

export function useSaveTemplate(templateId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TemplateInput) =>
      await apiRequest({ method: templateId ? 'PUT' : 'POST', path: templatePath(templateId ?? undefined), body: input }, Template),
    onSuccess: (saved) => {
      queryClient.setQueryData(templateSettingsKeys.detail(saved.templateId), saved);
      void queryClient.invalidateQueries({ queryKey: templateSettingsKeys.all });
    },
  });
}

export function useDeleteTemplate(templateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest({ method: 'DELETE', path: templatePath(templateId) }, TemplateRemoved),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: templateSettingsKeys.detail(templateId) });
      void queryClient.invalidateQueries({ queryKey: templateSettingsKeys.all });
    },
  });
}
