import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { Patient, PatientListResponse } from '../../../shared/patients/patient-schema.js';
import { apiRequest } from './api-client.js';
import { patientRequest } from './first-screen-requests.js';

/*
 * Patients as every feature reads them: one key per thing, so the list page, the task pages, the
 * palette and the note window share what they have fetched and one save refreshes them all.
 */
export interface PatientListParams {
  q: string;
  offset: number;
  archived: boolean;
}

export const patientKeys = {
  all: ['patients'] as const,
  /** Every list and search: a save or archive invalidates this prefix. */
  lists: () => [...patientKeys.all, 'list'] as const,
  list: (params: PatientListParams) => [...patientKeys.lists(), params] as const,
  search: (q: string, limit: number) => [...patientKeys.lists(), 'search', q, limit] as const,
  detail: (patientId: string) => [...patientKeys.all, 'detail', patientId] as const,
};

/** A patient changes rarely while one is looked at; a save replaces the cached copy at once. */
const PATIENT_STALE_MS = 60_000;
/** Pickers offer this many matches; more is noise in a dropdown. */
export const PATIENT_PICKER_RESULTS = 10;

export async function fetchPatient(patientId: string, signal?: AbortSignal): Promise<Patient> {
  return await apiRequest({ ...patientRequest(patientId), signal }, Patient);
}

export async function fetchPatientSearch(q: string, limit: number, signal?: AbortSignal): Promise<PatientListResponse> {
  return await apiRequest({ path: '/v1/patients', query: { q, limit }, signal }, PatientListResponse);
}

/** One patient, as the chart reads it; `prefetchQuery` with it fills the chart's cache early. */
export const patientQuery = (patientId: string) =>
  queryOptions({
    queryKey: patientKeys.detail(patientId),
    queryFn: ({ signal }) => fetchPatient(patientId, signal),
    staleTime: PATIENT_STALE_MS,
  });

export function usePatient(patientId: string | null | undefined) {
  return useQuery({ ...patientQuery(patientId ?? ''), enabled: Boolean(patientId) });
}

/** Several patients by id (e.g. the names a page of tasks links to), as a map of those loaded. */
export function usePatientsById(patientIds: readonly string[]): Map<string, Patient> {
  const results = useQueries({
    queries: [...new Set(patientIds)].map((id) => patientQuery(id)),
  });
  return new Map(results.flatMap((r) => (r.data ? [[r.data.id, r.data] as const] : [])));
}

/** Name or phone search, best matches first, each with why it matched (`matches`). */
export function usePatientSearch(q: string, { limit = PATIENT_PICKER_RESULTS, enabled = true }: { limit?: number; enabled?: boolean } = {}) {
  const query = q.trim();
  return useQuery({
    queryKey: patientKeys.search(query, limit),
    queryFn: ({ signal }) => fetchPatientSearch(query, limit, signal),
    enabled: enabled && query.length > 0,
    staleTime: 30_000,
  });
}
