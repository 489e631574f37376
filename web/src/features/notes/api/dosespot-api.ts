import { DoseSpotSso, DoseSpotSyncResult } from '../../../../../shared/partners/dosespot-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

/** DoseSpot's single sign-on URL, for the patient when one is open. */
export async function doseSpotSsoUrl(patientId: string | null): Promise<string> {
  return (await apiRequest({ path: '/v2/practices/sso/dosespot', query: { patientId: patientId ?? undefined } }, DoseSpotSso)).ssoUrl;
}

export function syncDoseSpot(patientId: string): Promise<DoseSpotSyncResult> {
  return apiRequest({ method: 'POST', path: '/v1/practices/users/me/dosespot-sync', query: { patientId } }, DoseSpotSyncResult);
}
