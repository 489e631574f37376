import { queryOptions } from '@tanstack/react-query';
import type { FreeformMedication } from '../../../../../shared/chart/sections.js';
import { FreeformMedicationAnswer, FreeformMedicationList } from '../../../../../shared/chart/section-responses.js';
import { NoContent } from '../../../../../shared/http/no-content.js';
import { apiRequest } from '../../../lib/api-client.js';

const basePath = (patientId: string) => `/v1/patients/${encodeURIComponent(patientId)}/freeform-medications`;
const itemPath = (patientId: string, ident: string) => `${basePath(patientId)}/${encodeURIComponent(ident)}`;

/** Medications recorded by name only (typed by the patient on a form, or not in the drug list). */
export async function fetchFreeformMedications(patientId: string, signal?: AbortSignal): Promise<FreeformMedication[]> {
  return (await apiRequest({ path: basePath(patientId), signal }, FreeformMedicationList)).items;
}

export const freeformKey = (patientId: string) => ['patients', patientId, 'freeform-medications'] as const;

export const freeformMedicationsQuery = (patientId: string) =>
  queryOptions({
    queryKey: freeformKey(patientId),
    queryFn: ({ signal }) => fetchFreeformMedications(patientId, signal),
  });

/** Adds a medication by name, or renames the one with `ident`. */
export function saveFreeformMedication(patientId: string, ident: string | undefined, body: Record<string, unknown>): Promise<FreeformMedication> {
  return apiRequest({ method: ident ? 'PUT' : 'POST', path: ident ? itemPath(patientId, ident) : basePath(patientId), body }, FreeformMedicationAnswer);
}

export function deleteFreeformMedication(patientId: string, ident: string): Promise<undefined> {
  return apiRequest({ method: 'DELETE', path: itemPath(patientId, ident) }, NoContent);
}
