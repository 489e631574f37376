import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

/** The health-summary sections and their path below /v1/patients/{patientId} (spec chart-data §7). */
export const SECTION_PATH = {
  general: 'general',
  allergies: 'allergies',
  medications: 'medications',
  vaccines: 'vaccines',
  diagnoses: 'diagnoses',
  surgeries: 'surgeries',
  familyHistory: 'family-history',
  socialHistory: 'social-history',
} as const;

export type SectionKey = keyof typeof SECTION_PATH;

/** What every stored chart item carries; each section adds its own fields. */
export interface ChartItem {
  ident: string;
  patientId?: string;
  pinned?: boolean | number;
  createdAt?: string;
  updatedAt?: string;
  /** Sent back with an edit so a save over someone else's change is refused (409). */
  version?: number;
  [field: string]: unknown;
}

export const chartKeys = {
  /** The list key the spec names: patients/{patientId}/allergies, …/diagnoses, … */
  section: (patientId: string, section: SectionKey) => ['patients', patientId, SECTION_PATH[section]] as const,
  featureGates: ['practice', 'feature-gates'] as const,
  icd10: (keyword: string) => ['icd-10-codes', keyword] as const,
  drugs: (text: string) => ['nationaldrugcodes', text] as const,
};

export function sectionPath(patientId: string, section: SectionKey, ident?: string): string {
  const base = `/v1/patients/${encodeURIComponent(patientId)}/${SECTION_PATH[section]}`;
  return ident ? `${base}/${encodeURIComponent(ident)}` : base;
}

/** List bodies arrive either bare or wrapped (`{ items }`); both mean the same list. */
export function listItems<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['items', 'data', 'results']) if (Array.isArray(record[key])) return record[key] as T[];
  }
  return [];
}

/** One section's items as stored now. */
export async function listSection<T>(patientId: string, section: SectionKey, signal?: AbortSignal): Promise<T[]> {
  return listItems<T>(await apiRequest<unknown>({ path: sectionPath(patientId, section), signal }));
}

export function useSectionList<T extends ChartItem>(patientId: string, section: SectionKey) {
  return useQuery({
    queryKey: chartKeys.section(patientId, section),
    queryFn: ({ signal }) => listSection<T>(patientId, section, signal),
  });
}

export interface SaveRequest {
  ident?: string;
  body: Record<string, unknown>;
}

/** Create when the item has no ident yet, update otherwise (spec §4); the list is refetched either way. */
export function useSaveItem(patientId: string, section: SectionKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ident, body }: SaveRequest) => apiRequest<ChartItem>({ method: ident ? 'PUT' : 'POST', path: sectionPath(patientId, section, ident), body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: chartKeys.section(patientId, section) }),
  });
}

export function useDeleteItem(patientId: string, section: SectionKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ident: string) => apiRequest<void>({ method: 'DELETE', path: sectionPath(patientId, section, ident) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: chartKeys.section(patientId, section) }),
  });
}

/** Practice feature flags, stored per practice and served by the API. */
export function useFeatureFlags() {
  return useQuery({
    queryKey: chartKeys.featureGates,
    queryFn: ({ signal }) => apiRequest<{ flags: Record<string, boolean> }>({ path: '/v1/practices/feature-gates', signal }),
    staleTime: 1_200_000,
    select: (body) => body.flags ?? {},
  });
}
