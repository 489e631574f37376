/**
 * DoseSpot e-prescribing: single sign-on into DoseSpot's own window, and the patient sent first.
 * The clinic's settings sit in the partner secret JSON under the key `dosespot`, as a JSON string
 * `{"clinicId": "...", "clinicKey": "...", "users": {"<Tidewell user id>": "<DoseSpot user id>"}}`,
 * so the clinic key is in Secrets Manager deployed without another secret resource.
 *
 * Single sign-on as DoseSpot documents it: a random 32-character phrase; SingleSignOnCode is the
 * phrase followed by base64(SHA512(phrase + clinic key)) without a trailing '==';
 * SingleSignOnUserIdVerify is base64(SHA512(first 22 characters of the phrase + user id + clinic
 * key)) without a trailing '=='.
 */
import { createHash, randomInt } from 'node:crypto';
import type { HttpExchange } from './sms-carrier.js';

export const DOSESPOT_PARTNER_ID = 'dosespot';
export const DOSESPOT_PHRASE_LENGTH = 32;
const USER_ID_PHRASE_LENGTH = 22;
const PHRASE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface DoseSpotConfig {
  clinicId: string;
  clinicKey: string;
  users: Record<string, string>;
}

export function parseDoseSpotConfig(text: string | null): DoseSpotConfig | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as Partial<DoseSpotConfig>;
    if (typeof raw.clinicId !== 'string' || typeof raw.clinicKey !== 'string' || !raw.clinicId || !raw.clinicKey) return null;
    const users = raw.users && typeof raw.users === 'object' ? Object.fromEntries(Object.entries(raw.users).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
    return { clinicId: raw.clinicId, clinicKey: raw.clinicKey, users };
  } catch {
    return null;
  }
}

/** base64(SHA512(text)) with a trailing '==' removed, as DoseSpot's single sign-on compares it. */
export function doseSpotHash(text: string): string {
  const b64 = createHash('sha512').update(text, 'utf8').digest('base64');
  return b64.endsWith('==') ? b64.slice(0, -2) : b64;
}

export function randomPhrase(): string {
  let out = '';
  for (let i = 0; i < DOSESPOT_PHRASE_LENGTH; i++) out += PHRASE_ALPHABET[randomInt(PHRASE_ALPHABET.length)];
  return out;
}

export interface SsoInput {
  clinicId: string;
  clinicKey: string;
  doseSpotUserId: string;
  doseSpotPatientId?: string;
  /** Given by tests only; otherwise a fresh random phrase each time. */
  phrase?: string;
}

export function ssoParams(input: SsoInput): URLSearchParams {
  const phrase = input.phrase ?? randomPhrase();
  if (phrase.length !== DOSESPOT_PHRASE_LENGTH) throw new Error('The single sign-on phrase must be 32 characters');
  const params = new URLSearchParams({
    SingleSignOnClinicId: input.clinicId,
    SingleSignOnUserId: input.doseSpotUserId,
    SingleSignOnPhraseLength: String(DOSESPOT_PHRASE_LENGTH),
    SingleSignOnCode: phrase + doseSpotHash(phrase + input.clinicKey),
    SingleSignOnUserIdVerify: doseSpotHash(phrase.slice(0, USER_ID_PHRASE_LENGTH) + input.doseSpotUserId + input.clinicKey),
  });
  if (input.doseSpotPatientId) params.set('PatientId', input.doseSpotPatientId);
  return params;
}

/** The URL of DoseSpot's window: its login page with the single sign-on query (URLSearchParams encodes the code). */
export function doseSpotSsoUrl(baseUrl: string, input: SsoInput): string {
  return `${baseUrl.replace(/\/$/, '')}/LoginSingleSignOn.aspx?${ssoParams(input).toString()}`;
}

export interface DoseSpotPatient {
  /** Tidewell's patient id, DoseSpot's NonDoseSpotMedicalRecordNumber. */
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender?: string | null;
}

const fetchExchange: HttpExchange = async (url, init) => {
  // fetch refuses a body on GET, even an empty one.
  const response = await fetch(url, init.method === 'GET' ? { method: 'GET', headers: init.headers } : init);
  return { status: response.status, body: await response.text() };
};

/**
 * Sends the patient before the window opens, so DoseSpot has them under its own PatientId; signed
 * with the same single sign-on parameters, which DoseSpot checks against the clinic key.
 */
export async function pushPatient(baseUrl: string, sso: Omit<SsoInput, 'doseSpotPatientId'>, patient: DoseSpotPatient, exchange: HttpExchange = fetchExchange): Promise<string> {
  const answer = await exchange(`${baseUrl.replace(/\/$/, '')}/api/patients?${ssoParams(sso).toString()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      NonDoseSpotMedicalRecordNumber: patient.id,
      FirstName: patient.firstName,
      LastName: patient.lastName,
      DateOfBirth: patient.dateOfBirth,
      Gender: patient.gender ?? 'Unknown',
    }),
  });
  if (answer.status >= 300) throw new Error(`DoseSpot refused the patient: HTTP ${answer.status}`);
  const id = (JSON.parse(answer.body) as { Id?: number | string }).Id;
  if (id === undefined || id === null) throw new Error('DoseSpot answered without a patient id');
  return String(id);
}

/** A prescription as DoseSpot lists it for a patient (the fields the chart keeps). */
export interface DoseSpotPrescription {
  PrescriptionId: number | string;
  DisplayName: string;
  Quantity?: string | number | null;
  Refills?: string | number | null;
  DaysSupply?: number | null;
  Directions?: string | null;
  WrittenDate?: string | null;
  NDC?: string | null;
  Strength?: string | null;
  DoseForm?: string | null;
  Route?: string | null;
  NoSubstitutions?: boolean | null;
  PrescriberId?: string | number | null;
  PrescriberName?: string | null;
}

export async function listPrescriptions(baseUrl: string, sso: Omit<SsoInput, 'doseSpotPatientId'>, doseSpotPatientId: string, exchange: HttpExchange = fetchExchange): Promise<DoseSpotPrescription[]> {
  const answer = await exchange(`${baseUrl.replace(/\/$/, '')}/api/patients/${encodeURIComponent(doseSpotPatientId)}/prescriptions?${ssoParams(sso).toString()}`, {
    method: 'GET',
    headers: { accept: 'application/json' },
    body: '',
  });
  if (answer.status >= 300) throw new Error(`DoseSpot refused the prescription list: HTTP ${answer.status}`);
  const items = (JSON.parse(answer.body) as { Items?: DoseSpotPrescription[] }).Items;
  return Array.isArray(items) ? items : [];
}

const numberOrUndefined = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** Spec notes §3 External prescription fields of a DoseSpot prescription (absent fields left out). */
export function toExternalPrescription(p: DoseSpotPrescription) {
  const refills = numberOrUndefined(p.Refills);
  const days = numberOrUndefined(p.DaysSupply);
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 500) : undefined);
  const out = {
    id: String(p.PrescriptionId),
    medicationName: p.DisplayName.trim().slice(0, 500),
    form: text(p.DoseForm),
    strength: text(p.Strength),
    routeOfAdministration: text(p.Route),
    instructions: typeof p.Directions === 'string' && p.Directions.trim() ? p.Directions.trim().slice(0, 2_000) : undefined,
    quantityPrescribed: numberOrUndefined(p.Quantity),
    numberOfRefills: refills !== undefined && Number.isInteger(refills) ? refills : undefined,
    daysOfTreatment: days !== undefined && Number.isInteger(days) ? days : undefined,
    datePrescribed: text(p.WrittenDate),
    ndcNumber: text(p.NDC),
    noSubstitutions: typeof p.NoSubstitutions === 'boolean' ? p.NoSubstitutions : undefined,
    providerId: p.PrescriberId === undefined || p.PrescriberId === null ? undefined : String(p.PrescriberId),
    providerName: text(p.PrescriberName),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as { id: string; medicationName: string } & Partial<Omit<typeof out, 'id' | 'medicationName'>>;
}
