/**
 * DoseSpot e-prescribing: single sign-on into DoseSpot's own window, and DoseSpot's RESTful API v2
 * for the patient sent first and the prescriptions read back. The clinic's settings sit in the
 * partner secret JSON under the key `dosespot`, as a JSON string `{"clinicId": "...", "clinicKey":
 * "...", "subscriptionKey": "...", "clinicUserId": "<DoseSpot user id>", "users": {"<Tidewell user id>":
 * "<DoseSpot user id>"}}`, so the clinic key and the API subscription key are in Secrets Manager
 * without another secret resource. `clinicUserId` is the clinic-level DoseSpot user the scheduled
 * prescriptions sync acts as (every API token is one user's; nobody is signed in at that hour).
 *
 * API v2 (DoseSpot's RESTful API V2 authentication guide): every call carries the
 * `Subscription-Key` header and a bearer token from `POST {base}/webapi/v2/connect/token`, a
 * password grant for one DoseSpot user (client_id = clinic id, client_secret and password = clinic
 * key, username = the DoseSpot user id, scope = api). Answers carry
 * `Result: {ResultCode: 'OK' | 'ERROR', ResultDescription}`, an error sometimes with HTTP 200.
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
  /** The API's Subscription-Key; single sign-on works without it, the API calls do not. */
  subscriptionKey?: string;
  /** The DoseSpot user the unattended sync acts as; without it the scheduled sync skips the clinic. */
  clinicUserId?: string;
  users: Record<string, string>;
}

export function parseDoseSpotConfig(text: string | null): DoseSpotConfig | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as Partial<DoseSpotConfig>;
    if (typeof raw.clinicId !== 'string' || typeof raw.clinicKey !== 'string' || !raw.clinicId || !raw.clinicKey) return null;
    const users =
      raw.users && typeof raw.users === 'object'
        ? Object.fromEntries(Object.entries(raw.users).filter((e): e is [string, string] => typeof e[1] === 'string'))
        : {};
    const given = (raw as { clinicUserId?: unknown }).clinicUserId;
    const clinicUserId = typeof given === 'number' ? String(given) : given;
    return {
      clinicId: raw.clinicId,
      clinicKey: raw.clinicKey,
      ...(typeof raw.subscriptionKey === 'string' && raw.subscriptionKey ? { subscriptionKey: raw.subscriptionKey } : {}),
      ...(typeof clinicUserId === 'string' && clinicUserId.trim() ? { clinicUserId: clinicUserId.trim() } : {}),
      users,
    };
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
  address?: { line1?: string; line2?: string; city?: string; state?: string; zip?: string } | null;
  /** E.164 (+1…), Tidewell's stored form. */
  phone?: string | null;
  phoneType?: string | null;
}

const fetchExchange: HttpExchange = async (url, init) => {
  // fetch refuses a body on GET, even an empty one.
  const response = await fetch(url, init.method === 'GET' ? { method: 'GET', headers: init.headers } : init);
  return { status: response.status, body: await response.text() };
};

/** What the API needs besides the base URL: the clinic, its keys and the DoseSpot user acting. */
export interface DoseSpotApiAuth {
  clinicId: string;
  clinicKey: string;
  subscriptionKey: string;
  doseSpotUserId: string;
}

/** A refusal from DoseSpot, with its own ResultDescription (never patient data). */
export class DoseSpotApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(`DoseSpot refused the request: HTTP ${status}${description ? ` (${description})` : ''}`);
  }
}

const apiBase = (baseUrl: string) => `${baseUrl.replace(/\/$/, '')}/webapi/v2`;

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

/** Tokens by clinic, user and base URL, kept while the function lives, renewed a minute early. */
const tokens = new Map<string, CachedToken>();
const TOKEN_MARGIN_MS = 60_000;

export async function accessToken(baseUrl: string, auth: DoseSpotApiAuth, exchange: HttpExchange = fetchExchange, now = Date.now()): Promise<string> {
  const cacheKey = `${baseUrl}|${auth.clinicId}|${auth.doseSpotUserId}`;
  const cached = tokens.get(cacheKey);
  if (cached && cached.expiresAt - TOKEN_MARGIN_MS > now) return cached.accessToken;
  const answer = await exchange(`${apiBase(baseUrl)}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'Subscription-Key': auth.subscriptionKey },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: auth.clinicId,
      client_secret: auth.clinicKey,
      username: auth.doseSpotUserId,
      password: auth.clinicKey,
      scope: 'api',
    }).toString(),
  });
  const body = parseJson(answer.body) as { access_token?: unknown; expires_in?: unknown; error_description?: unknown; error?: unknown } | null;
  if (answer.status >= 300 || typeof body?.access_token !== 'string') {
    throw new DoseSpotApiError(
      answer.status,
      typeof body?.error_description === 'string' ? body.error_description : typeof body?.error === 'string' ? body.error : '',
    );
  }
  const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 600;
  tokens.set(cacheKey, { accessToken: body.access_token, expiresAt: now + seconds * 1000 });
  return body.access_token;
}

/** Forgets every cached token (a test's clock, or a rotated clinic key). */
export function forgetDoseSpotTokens(): void {
  tokens.clear();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** One API call: bearer token and subscription key; an HTTP error or `ResultCode: 'ERROR'` throws. */
async function apiCall<T>(baseUrl: string, auth: DoseSpotApiAuth, method: 'GET' | 'POST', path: string, body: unknown, exchange: HttpExchange): Promise<T> {
  const token = await accessToken(baseUrl, auth, exchange);
  const answer = await exchange(`${apiBase(baseUrl)}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'Subscription-Key': auth.subscriptionKey,
      accept: 'application/json',
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    body: method === 'POST' ? JSON.stringify(body) : '',
  });
  const parsed = parseJson(answer.body) as (T & { Result?: { ResultCode?: string; ResultDescription?: string } }) | null;
  if (answer.status >= 300 || !parsed || parsed.Result?.ResultCode === 'ERROR')
    throw new DoseSpotApiError(answer.status, parsed?.Result?.ResultDescription ?? '');
  return parsed;
}

/** DoseSpot's PhoneType enumeration. */
const PHONE_TYPES: Record<string, number> = { mobile: 2, cell: 2, fax: 3, home: 4, work: 5 };
const PRIMARY_PHONE = 7;

/** A US number as DoseSpot validates it: ten digits, written 555-010-1234. */
export function doseSpotPhone(e164: string | null | undefined): string | undefined {
  const digits = (e164 ?? '').replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  return digits.length === 10 ? `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}` : undefined;
}

function doseSpotGender(gender: string | null | undefined): 'Male' | 'Female' | 'Unknown' {
  const g = (gender ?? '').toLowerCase();
  return g === 'male' || g === 'm' ? 'Male' : g === 'female' || g === 'f' ? 'Female' : 'Unknown';
}

/**
 * AddEditPatientRequest's string lengths, as DoseSpot's API help publishes them
 * (https://my.staging.dosespot.com/webapi/Help/Api/POST-api-patients-patientId): a longer value is
 * refused with ResultCode ERROR, so the patient would never reach DoseSpot.
 */
export const DOSESPOT_PATIENT_LIMITS = {
  FirstName: 35,
  LastName: 35,
  Address1: 35,
  Address2: 35,
  City: 35,
  State: 50,
  ZipCode: 10,
  PrimaryPhone: 25,
  NonDoseSpotMedicalRecordNumber: 35,
} as const;

const clip = (text: string, max: number) => text.trim().slice(0, max).trim();

/** A street line split at a word within DoseSpot's 35 characters, the rest on the second line. */
function addressLines(line1: string, line2: string): { Address1: string; Address2?: string } {
  const max = DOSESPOT_PATIENT_LIMITS.Address1;
  const first = line1.trim().replace(/\s+/g, ' ');
  if (first.length <= max) return { Address1: first, ...(line2.trim() ? { Address2: clip(line2, max) } : {}) };
  const cut = first.lastIndexOf(' ', max) > 0 ? first.lastIndexOf(' ', max) : max;
  const rest = [first.slice(cut).trim(), line2.trim()].filter(Boolean).join(', ');
  return { Address1: first.slice(0, cut).trim(), ...(rest ? { Address2: clip(rest, DOSESPOT_PATIENT_LIMITS.Address2) } : {}) };
}

/** The body of `POST /api/patients` (DoseSpot's add-patient fields, each within its published length). */
export function doseSpotPatientBody(patient: DoseSpotPatient) {
  const phone = doseSpotPhone(patient.phone);
  const L = DOSESPOT_PATIENT_LIMITS;
  return {
    NonDoseSpotMedicalRecordNumber: patient.id,
    FirstName: clip(patient.firstName, L.FirstName),
    LastName: clip(patient.lastName, L.LastName),
    DateOfBirth: patient.dateOfBirth,
    Gender: doseSpotGender(patient.gender),
    ...addressLines(patient.address?.line1 ?? '', patient.address?.line2 ?? ''),
    City: clip(patient.address?.city ?? '', L.City),
    State: clip(patient.address?.state ?? '', L.State),
    ZipCode: clip(patient.address?.zip ?? '', L.ZipCode),
    PrimaryPhone: phone ?? '',
    PrimaryPhoneType: PHONE_TYPES[(patient.phoneType ?? '').toLowerCase()] ?? PRIMARY_PHONE,
    Active: true,
  };
}

/** Adds the patient to the clinic in DoseSpot (`POST /api/patients`) and returns DoseSpot's PatientId. */
export async function pushPatient(baseUrl: string, auth: DoseSpotApiAuth, patient: DoseSpotPatient, exchange: HttpExchange = fetchExchange): Promise<string> {
  const answer = await apiCall<{ Id?: number | string }>(baseUrl, auth, 'POST', '/api/patients', doseSpotPatientBody(patient), exchange);
  if (answer.Id === undefined || answer.Id === null) throw new DoseSpotApiError(200, 'no patient id');
  return String(answer.Id);
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

/** DoseSpot pages its lists; more pages than this for one patient is a fault, not a chart. */
const MAX_PAGES = 50;

/** Every prescription of a DoseSpot patient (`GET /api/patients/{id}/prescriptions`, page by page). */
export async function listPrescriptions(
  baseUrl: string,
  auth: DoseSpotApiAuth,
  doseSpotPatientId: string,
  exchange: HttpExchange = fetchExchange,
): Promise<DoseSpotPrescription[]> {
  const all: DoseSpotPrescription[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await apiCall<{ Items?: DoseSpotPrescription[]; PageResult?: { HasNext?: boolean } }>(
      baseUrl,
      auth,
      'GET',
      `/api/patients/${encodeURIComponent(doseSpotPatientId)}/prescriptions?pageNumber=${page}`,
      undefined,
      exchange,
    );
    if (Array.isArray(answer.Items)) all.push(...answer.Items);
    if (!answer.PageResult?.HasNext) return all;
  }
  throw new DoseSpotApiError(200, `more than ${MAX_PAGES} pages of prescriptions`);
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
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as { id: string; medicationName: string } & Partial<
    Omit<typeof out, 'id' | 'medicationName'>
  >;
}
