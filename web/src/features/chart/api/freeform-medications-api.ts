import type { FreeformMedication } from '../../../../../shared/chart/sections.js';
import { apiRequest } from '../../../lib/api-client.js';
import { listItems } from './chart-api.js';

const basePath = (patientId: string) => `/v1/patients/${encodeURIComponent(patientId)}/freeform-medications`;
const itemPath = (patientId: string, ident: string) => `${basePath(patientId)}/${encodeURIComponent(ident)}`;

/** Medications recorded by name only (typed by the patient on a form, or not in the drug list). */
export async function fetchFreeformMedications(patientId: string, signal?: AbortSignal): Promise<FreeformMedication[]> {
  return listItems<FreeformMedication>(await apiRequest<unknown>({ path: basePath(patientId), signal }));
}

/** Adds a medication by name, or renames the one with `ident`. */
export function saveFreeformMedication(patientId: string, ident: string | undefined, body: Record<string, unknown>): Promise<unknown> {
  return apiRequest({ method: ident ? 'PUT' : 'POST', path: ident ? itemPath(patientId, ident) : basePath(patientId), body });
}

export function deleteFreeformMedication(patientId: string, ident: string): Promise<unknown> {
  return apiRequest({ method: 'DELETE', path: itemPath(patientId, ident) });
}
