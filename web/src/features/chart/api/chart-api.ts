import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChartSectionItem, ChartSectionList } from '../../../../../shared/chart/section-responses.js';
import { NoContent } from '../../../../../shared/http/no-content.js';
import { FeatureGates } from '../../../../../shared/practice/settings-responses.js';
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

/**
 * One section's items as stored now, each checked by its section's schema; `T` is the section's
 * own view of them (its definition's item type), which the schema keeps every field for.
 */
export async function listSection<T extends ChartItem>(patientId: string, section: SectionKey, signal?: AbortSignal): Promise<T[]> {
  const { items } = await apiRequest({ path: sectionPath(patientId, section), signal }, ChartSectionList[section]);
  return items as T[];
}

/** One section's list as the chart reads it: what its card shows, and what the chart asks for ahead. */
export const sectionListQuery = <T extends ChartItem>(patientId: string, section: SectionKey) =>
  queryOptions({
    queryKey: chartKeys.section(patientId, section),
    queryFn: ({ signal }) => listSection<T>(patientId, section, signal),
  });

export function useSectionList<T extends ChartItem>(patientId: string, section: SectionKey) {
  return useQuery(sectionListQuery<T>(patientId, section));
}

export interface SaveRequest {
  ident?: string;
  body: Record<string, unknown>;
}

/** Create when the item has no ident yet, update otherwise (spec §4); the list is refetched either way. */
export function useSaveItem(patientId: string, section: SectionKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ident, body }: SaveRequest) =>
      apiRequest({ method: ident ? 'PUT' : 'POST', path: sectionPath(patientId, section, ident), body }, ChartSectionItem[section]),
    onSettled: () => queryClient.invalidateQueries({ queryKey: chartKeys.section(patientId, section) }),
  });
}

export function useDeleteItem(patientId: string, section: SectionKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ident: string) => apiRequest({ method: 'DELETE', path: sectionPath(patientId, section, ident) }, NoContent),
    onSettled: () => queryClient.invalidateQueries({ queryKey: chartKeys.section(patientId, section) }),
  });
}

/** Practice feature flags, stored per practice and served by the API. */
export const featureGatesQuery = queryOptions({
  queryKey: chartKeys.featureGates,
  queryFn: ({ signal }) => apiRequest({ path: '/v1/practices/feature-gates', signal }, FeatureGates),
  staleTime: 1_200_000,
});

export function useFeatureFlags() {
  return useQuery({ ...featureGatesQuery, select: (body) => body.flags ?? {} });
}
