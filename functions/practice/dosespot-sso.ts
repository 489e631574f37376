import { maySignPrescription, RX_MESSAGES } from '../../shared/notes/rx.js';
import { DOSESPOT_MESSAGES, type DoseSpotSso, type DoseSpotSsoQuery } from '../../shared/partners/dosespot.js';
import { DOSESPOT_PARTNER_ID, doseSpotSsoUrl, parseDoseSpotConfig, type DoseSpotApiAuth, type DoseSpotConfig } from '../lib/adapters/dosespot.js';
import { partnerSecretsFromEnv } from '../lib/adapters/partner-secrets.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, ForbiddenError, NotFoundError, ValidationError } from '../lib/errors.js';
import { getPatient, PATIENT_NOT_FOUND } from '../data/patients/patient-repository.js';
import { doseSpotPatientIdFor } from './dosespot-patient-link.js';
import { getUser } from '../data/users/user-repository.js';

/** DoseSpot's production window, unless the practice's DoseSpot entry names another (staging, the local stand-in). */
export const DOSESPOT_DEFAULT_URL = 'https://my.dosespot.com/';

export async function doseSpotConfig(): Promise<(DoseSpotConfig & { baseUrl: string }) | null> {
  const text = await partnerSecretsFromEnv().secretOf(DOSESPOT_PARTNER_ID);
  const config = parseDoseSpotConfig(text);
  if (!config) return null;
  const baseUrl = (JSON.parse(text!) as { baseUrl?: unknown }).baseUrl;
  return { ...config, baseUrl: typeof baseUrl === 'string' && baseUrl ? baseUrl : DOSESPOT_DEFAULT_URL };
}

/** The caller's DoseSpot user id, when the caller may prescribe and the clinic has them. */
export async function doseSpotUserOf(auth: AuthContext, config: DoseSpotConfig): Promise<string> {
  const user = await getUser(auth.practiceId, auth.userId);
  if (!user || user.userStatus === 'deleted' || !maySignPrescription(user)) throw new ForbiddenError(RX_MESSAGES.cannotPrescribe);
  // The id an admin set in settings wins over the partner secret's map (kept for existing clinics).
  const doseSpotUserId = user.doseSpotUserId ?? config.users[auth.userId];
  if (!doseSpotUserId) throw new ForbiddenError(DOSESPOT_MESSAGES.failed);
  return doseSpotUserId;
}

/** The API's credentials for this prescriber; without a subscription key the clinic cannot use the API. */
export function doseSpotApiAuth(config: DoseSpotConfig, doseSpotUserId: string): DoseSpotApiAuth {
  if (!config.subscriptionKey) throw new DependencyError(503, DOSESPOT_MESSAGES.failed, 'DOSESPOT_NO_SUBSCRIPTION_KEY');
  return { clinicId: config.clinicId, clinicKey: config.clinicKey, subscriptionKey: config.subscriptionKey, doseSpotUserId };
}

/**
 * GET /v2/practices/sso/dosespot[?patientId=]: the URL that signs the prescriber into DoseSpot's
 * window; with a patient, the patient is sent to DoseSpot first (once: their DoseSpot id is kept)
 * and the window opens on them.
 */
export async function doseSpotSso(auth: AuthContext, query: DoseSpotSsoQuery): Promise<DoseSpotSso> {
  const config = await doseSpotConfig();
  if (!config) throw new DependencyError(503, DOSESPOT_MESSAGES.failed, 'DOSESPOT_NOT_CONFIGURED');
  const doseSpotUserId = await doseSpotUserOf(auth, config);
  const sso = { clinicId: config.clinicId, clinicKey: config.clinicKey, doseSpotUserId };
  if (!query.patientId) return { ssoUrl: doseSpotSsoUrl(config.baseUrl, sso) };

  const patient = await getPatient(auth.practiceId, query.patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  await writeAudit(auth, { action: 'read', entity: 'dosespot-sso', entityId: query.patientId, patientId: query.patientId });
  const apiAuth = doseSpotApiAuth(config, doseSpotUserId);
  let doseSpotPatientId: string;
  try {
    doseSpotPatientId = await doseSpotPatientIdFor(auth.practiceId, config.baseUrl, apiAuth, patient);
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new DependencyError(502, DOSESPOT_MESSAGES.failed, 'DOSESPOT_PATIENT_REFUSED');
  }
  return { ssoUrl: doseSpotSsoUrl(config.baseUrl, { ...sso, doseSpotPatientId }) };
}
