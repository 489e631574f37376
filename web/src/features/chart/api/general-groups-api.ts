import { ChartSectionItem, GeneralGroupAnswer, GeneralListAnswer } from '../../../../../shared/chart/section-responses.js';
import { NoContent } from '../../../../../shared/http/no-content.js';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';
import { sectionPath } from './chart-api.js';

const groupsPath = (patientId: string) => `/v1/patients/${encodeURIComponent(patientId)}/general-groups`;
const groupPath = (patientId: string, ident: string) => `${groupsPath(patientId)}/${encodeURIComponent(ident)}`;

export function renameGeneralGroup(patientId: string, ident: string, name: string) {
  return apiRequest({ method: 'PUT', path: groupPath(patientId, ident), body: { name } }, GeneralGroupAnswer);
}

/** Deleting a group deletes its items (the API removes them with it). */
export function deleteGeneralGroup(patientId: string, ident: string) {
  return apiRequest({ method: 'DELETE', path: groupPath(patientId, ident) }, NoContent).catch((error: unknown) => {
    // A group deleted elsewhere is already gone: the refetch shows that; other failures are logged.
    if (!isApiError(error, 404)) console.error('Deleting the group failed', error);
  });
}

/**
 * An item with a group goes through the general-groups call (spec §7: group name and items):
 * into the existing group of that name, or a new one. Without a group it is a plain item.
 */
export async function saveGeneralItem(patientId: string, groupName: string, body: Record<string, unknown>, ident?: string) {
  if (!groupName) return apiRequest({ method: ident ? 'PUT' : 'POST', path: sectionPath(patientId, 'general', ident), body }, ChartSectionItem.general);
  const current = await apiRequest({ path: sectionPath(patientId, 'general') }, GeneralListAnswer);
  const existing = current.groups.find((group) => group.name.trim().toLowerCase() === groupName.toLowerCase());
  const groupBody = { name: existing?.name ?? groupName, items: [{ ...(ident ? { ident } : {}), ...body }] };
  return existing
    ? apiRequest({ method: 'PUT', path: groupPath(patientId, existing.ident), body: { ...groupBody, ident: existing.ident } }, GeneralGroupAnswer)
    : apiRequest({ method: 'POST', path: groupsPath(patientId), body: groupBody }, GeneralGroupAnswer);
}
