/**
 * A practice rebuilt from a whole-practice FHIR export (Tidewell's own, or another system's NDJSON
 * of the same resource types): one patient's resources at a time, sent as one bundle by the
 * practice CLI (`npm run practice -- import`), which reads the export and keeps the progress.
 *
 * The patient is found again by the source's identifier of it (a marker written before the patient,
 * only if absent) and the chart goes through the per-patient import, whose own markers make a
 * resource brought in once never come in twice: a second run, or a run resumed after a failure,
 * adds nothing that is already here. A patient too large for one request comes in parts, each one
 * such request: the same chart is found by every part, and each part's markers are its own.
 */
import { createHash } from 'node:crypto';
import * as z from '../../../../shared/zod.js';
import { PatientInput } from '../../../../shared/patients/patient-schema.js';
import type { AuthContext } from '../../../lib/auth/auth-context.js';
import { writeAudit } from '../../../lib/audit/audit-repository.js';
import { ValidationError } from '../../../lib/errors.js';
import { parseOrThrow } from '../../../lib/http/zod-errors.js';
import { newPatientId } from '../../patients/patient-id.js';
import { claimSourcePatientChart, sourcePatientChart } from '../../../data/fhir-import/import-markers.js';
import { createPatient, getPatient } from '../../../data/patients/patient-repository.js';
import { listUsers } from '../../../data/users/user-repository.js';
import { restoreText } from '../../../core/messaging/restored-texts.js';
import { analyse, FhirImportBody, writeImport, type Analysed, type ImportedAuthor } from '../import-chart.js';
import { commsContext } from '../import-comms.js';
import { removeUploads, withUploadedFiles } from './import-uploads.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const PRACTICE_IMPORT_MESSAGES = {
  noPatient: 'The bundle holds no Patient: each bundle of a practice import is one patient with their resources',
  noName: 'The Patient has no name: a chart needs a first and last name',
} as const;

export const PracticeImportBody = z.object({ bundle: FhirImportBody.shape.bundle });

export interface PracticeImportResult {
  patientId: string;
  /** False when the source's patient was brought in before (a second run, a resumed one). */
  created: boolean;
  added: number;
  present: number;
  skipped: number;
  /** What was left out and why, by resource type and reason (a practice's thousands of items would outgrow a response). */
  leftOut: { resourceType: string; reason: string; count: number }[];
}

/** The source's own name for the patient: its first identifier with a system, else its id (another system's export may carry no identifier). */
export function sourcePatientKey(r: Json): string {
  const ids = Array.isArray(r.identifier) ? (r.identifier as Json[]) : [];
  const id =
    ids.find((i) => typeof i?.system === 'string' && typeof i?.value === 'string' && i.use === 'usual') ??
    ids.find((i) => typeof i?.system === 'string' && typeof i?.value === 'string');
  const basis = id ? `${id.system}|${id.value}` : `id|${String(r.id ?? '')}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 40);
}

const GENDERS = new Set(['male', 'female', 'other', 'unknown']);
const clip = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined);

/** What a new chart starts with, from the source's Patient; the rest (race, identifiers, …) comes in as the chart's demographics. */
export function patientInputOf(r: Json): PatientInput {
  const names = (r.name as Json[] | undefined) ?? [];
  const official = names.find((n) => n.use === 'official') ?? names[0];
  const usual = names.find((n) => n !== official && n.use === 'usual');
  const given = ((official?.given as unknown[] | undefined) ?? []).filter((g): g is string => typeof g === 'string');
  const firstName = clip(given[0], 35);
  const lastName = clip(official?.family, 35);
  if (!firstName || !lastName) throw new ValidationError(PRACTICE_IMPORT_MESSAGES.noName);
  const telecom = (r.telecom as Json[] | undefined) ?? [];
  const phone = telecom.find((t) => t.system === 'phone' && t.rank === 1) ?? telecom.find((t) => t.system === 'phone');
  const address = (r.address as Json[] | undefined)?.[0];
  const dob = typeof r.birthDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(r.birthDate) ? r.birthDate : undefined;
  const candidate = {
    firstName,
    lastName,
    middleName: clip(given[1], 35),
    chosenFirstName: clip((usual?.given as unknown[] | undefined)?.[0], 35),
    chosenLastName: usual && usual.family !== official?.family ? clip(usual.family, 35) : undefined,
    gender: GENDERS.has(r.gender) ? r.gender : 'unknown',
    dob,
    email: clip(telecom.find((t) => t.system === 'email')?.value, 100),
    primaryPhoneNumber: clip(phone?.value, 20),
    address: address
      ? {
          line1: clip(address.line?.[0], 100),
          line2: clip(address.line?.[1], 100),
          city: clip(address.city, 50),
          state: clip(address.state, 50),
          zip: clip(address.postalCode, 20),
        }
      : undefined,
  };
  // A field the chart would refuse (an outside system's phone in a shape Tidewell does not read) is left empty, not the patient refused.
  const parsed = PatientInput.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  if (bad.has('firstName') || bad.has('lastName')) throw new ValidationError(PRACTICE_IMPORT_MESSAGES.noName);
  return parseOrThrow(PatientInput, Object.fromEntries(Object.entries(candidate).filter(([k]) => !bad.has(k))));
}

/** The chart the source's patient became: found by its marker, else claimed for a new id (the marker first, so a crash between the two leaves one chart). */
async function chartFor(practiceId: string, key: string): Promise<{ patientId: string; claimed: boolean }> {
  const found = await sourcePatientChart(practiceId, key);
  if (found) return { patientId: found, claimed: false };
  const patientId = newPatientId();
  if (await claimSourcePatientChart(practiceId, key, patientId, new Date().toISOString())) return { patientId, claimed: true };
  return chartFor(practiceId, key);
}

const emailOf = (r: Json | undefined) =>
  ((r?.telecom as Json[] | undefined) ?? []).find((t) => t.system === 'email' && typeof t.value === 'string')?.value?.toLowerCase() as string | undefined;

/** Who wrote what a resource becomes: the note it was written from (a call's, a fax's), else its own author, performer or practice side. */
function authorRefOf(r: Json, twin: Json | undefined): Json | undefined {
  const written = (d: Json | undefined) => (d?.author as Json[] | undefined)?.[0] ?? d?.authenticator;
  const isPractitioner = (x: Json | undefined) => typeof x?.reference === 'string' && /(^|\/)Practitioner\//.test(x.reference);
  return (
    written(twin) ??
    written(r) ??
    (r.performer as Json[] | undefined)?.find(isPractitioner) ??
    (isPractitioner(r.sender) ? r.sender : undefined) ??
    (r.recipient as Json[] | undefined)?.find(isPractitioner)
  );
}

const practitionerName = (p: Json | undefined, ref: Json) => {
  const n = (p?.name as Json[] | undefined)?.[0];
  const name = n?.text || [...(n?.given ?? []), n?.family].filter(Boolean).join(' ') || ref.display;
  return typeof name === 'string' && name.trim() ? name.trim() : undefined;
};

/**
 * A note, file or vital signs whose author is a Practitioner with the email of a user here is that
 * user's, as it was at the source (Tidewell's export names its users with their email); others keep
 * the name only. A call's, fax's or form's note is written by whoever wrote the note it came from,
 * vital signs by their performer: not by the admin running the import.
 */
async function matchAuthors(practiceId: string, body: PracticeImportBody, items: Analysed['items']): Promise<void> {
  const practitioners = new Map<string, Json>();
  for (const e of body.bundle.entry ?? []) {
    const r = e.resource as Json;
    if (r.resourceType !== 'Practitioner') continue;
    for (const ref of [e.fullUrl, typeof r.id === 'string' ? `Practitioner/${r.id}` : undefined]) if (ref) practitioners.set(ref, r);
  }
  const users = new Map<string, ImportedAuthor>();
  for (const u of await listUsers(practiceId))
    if (u.emailAddress && u.userStatus !== 'deleted') users.set(u.emailAddress.toLowerCase(), { userId: u.userId, name: u.name, email: u.emailAddress });
  const { twins } = commsContext(body.bundle.entry);
  for (const item of items) {
    const p = item.planned;
    if (p?.kind !== 'note' && p?.kind !== 'file' && p?.kind !== 'vital') continue;
    const ref = authorRefOf(item.resource, twins.get(item.resource));
    if (typeof ref?.reference !== 'string') continue;
    const practitioner = practitioners.get(ref.reference);
    const user = users.get(emailOf(practitioner) ?? '');
    if (user) p.authorUser = user;
    else p.author ??= practitionerName(practitioner, ref);
  }
}
type PracticeImportBody = z.infer<typeof PracticeImportBody>;

/** POST /v1/practices/fhir-imports/patients: one patient of a practice's export into this practice (admins only, audited). */
export async function importPracticePatient(auth: AuthContext, raw: unknown, now = new Date()): Promise<PracticeImportResult> {
  const parsed = parseOrThrow(PracticeImportBody, raw);
  // A file too large for the request came up on its own: its bytes are read back in before anything else reads the bundle.
  const uploads = await withUploadedFiles(parsed.bundle.entry);
  const body: PracticeImportBody = { bundle: { ...parsed.bundle, entry: uploads.entries } };
  const source = body.bundle.entry?.map((e) => e.resource as Json).find((r) => r.resourceType === 'Patient');
  if (!source) throw new ValidationError(PRACTICE_IMPORT_MESSAGES.noPatient);
  const input = patientInputOf(source);
  const { patientId } = await chartFor(auth.practiceId, sourcePatientKey(source));
  let created = false;
  if (!(await getPatient(auth.practiceId, patientId))) {
    await createPatient(auth.practiceId, patientId, input, now);
    await writeAudit(auth, { action: 'create', entity: 'patient', entityId: patientId, patientId });
    created = true;
  }
  const analysed = await analyse(auth.practiceId, patientId, body);
  // A later part of a patient sent in parts repeats the Patient and the practitioners, locations and
  // medications it names (search mode "include"): read for its references, not brought in or counted again.
  const included = new Set((body.bundle.entry ?? []).filter((e) => e.search?.mode === 'include').map((e) => e.resource));
  const items = analysed.items.filter((i) => !included.has(i.resource));
  await matchAuthors(auth.practiceId, body, items);
  // The practice's own conversation texts go back into its conversations, as the texts they were.
  const added = await writeImport(auth, patientId, items, now, (note, numbers) => restoreText(auth.practiceId, note, numbers, now));
  await writeAudit(auth, { action: 'create', entity: 'fhir_practice_import', patientId, count: added });
  await removeUploads(uploads.keys);
  const leftOut = new Map<string, { resourceType: string; reason: string; count: number }>();
  for (const item of items.filter((i) => i.action === 'skip')) {
    const k = `${item.resourceType}|${item.reason ?? ''}`;
    const entry = leftOut.get(k) ?? { resourceType: item.resourceType, reason: item.reason ?? '', count: 0 };
    entry.count++;
    leftOut.set(k, entry);
  }
  return {
    patientId,
    created,
    added,
    present: items.filter((i) => i.action === 'present').length,
    skipped: items.filter((i) => i.action === 'skip').length,
    leftOut: [...leftOut.values()],
  };
}
