import { useQuery } from '@tanstack/react-query';
import { PatientListResponse } from '../../../../../shared/patients/patient-schema.js';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';
import type { PracticeUser } from '../../../lib/practice.js';

/** Enough patients to pick from without scrolling a long list inside the palette. */
const PATIENT_RESULTS = 8;

export interface PaletteTemplate {
  templateId: string;
  templateName: string;
  status?: string;
}

export function usePalettePatients(query: string, enabled: boolean) {
  return useQuery({
    queryKey: ['palette', 'patients', query],
    queryFn: async ({ signal }) =>
      PatientListResponse.parse(await apiRequest<unknown>({ path: '/v1/patients', query: { q: query, limit: PATIENT_RESULTS }, signal })).items,
    enabled: enabled && query.trim().length > 0,
    staleTime: 30_000,
  });
}

export function usePaletteUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['practice', 'users'],
    queryFn: ({ signal }) => apiRequest<PracticeUser[]>({ path: '/v1/practices/users', signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** Templates come with the notes release; until that API answers, the section stays empty. */
export function usePaletteTemplates(enabled: boolean) {
  return useQuery({
    queryKey: ['palette', 'templates'],
    queryFn: async ({ signal }) => {
      try {
        const body = await apiRequest<PaletteTemplate[] | { templates?: PaletteTemplate[]; items?: PaletteTemplate[] }>({ path: '/v1/practices/templates', signal });
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
