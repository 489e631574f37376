import { createHash, randomUUID } from 'node:crypto';
import * as z from '../../../shared/zod.js';
import type { FhirImportItem, FhirImportPreview, FhirImportResult } from '../../../shared/chart/fhir.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import { NotFoundError } from '../../lib/errors.js';
import { log } from '../../lib/log.js';
import { parseOrThrow } from '../../lib/http/zod-errors.js';
import { claimImportMarker, importedKeys } from '../../data/fhir-import/import-markers.js';
import { insertNote } from '../../data/notes/note-repository.js';
import { getPatient, setPatientDemographics } from '../../data/patients/patient-repository.js';
import { mergeDemographics } from './demographics.js';
import { createSectionItem, PATIENT_NOT_FOUND } from '../../data/chart/chart-repository.js';
import { buildStored } from '../chart/section-crud.js';
import { SOCIAL_HISTORY } from '../chart/social-history.js';
import { safeFileName } from '../../../shared/notes/files.js';
import { storedKey } from '../../lib/files/presign.js';
import { identifiersOf } from './fhir-core.js';
import { store } from '../fhir-bulk/files-store.js';
import { TEXTING_LINE } from './communications.js';
import { mergeLabData } from './import-labs.js';
import { importAppointments, planAppointments, type AppointmentItem } from './import-appointments.js';
import { bundleContext, patientName, plan, refsTo, type BundleContext, type Json, type Planned, type TextingNumbers } from './import-plan/index.js';
import { escapeHtml } from './import-plan/read.js';

export type { ImportedAuthor, Planned } from './import-plan/index.js';
export { fileNameOf, withoutSubjectLine } from './import-plan/documents.js';
export { outsideCodings } from './import-plan/read.js';

/*
 * A FHIR bundle into a chart. Every resource brought in leaves a marker under the patient
 * (FHIRIMPORT#<patientId>#<key>, the key from the resource's identifier, else its content), written
 * before what it makes and only if absent: the same bundle imported twice adds nothing.
 */

export const MAX_IMPORT_ENTRIES = 5_000;
export const FhirImportBody = z.object({
  bundle: z.object(
    {
      resourceType: z.literal('Bundle', { error: 'The file is not a FHIR Bundle' }),
      entry: z.optional(
        z
          .array(
            z.object({
              fullUrl: z.optional(z.string()),
              resource: z.record(z.string(), z.unknown()),
              search: z.optional(z.object({ mode: z.optional(z.string().check(z.maxLength(20))) })),
            }),
          )
          .check(z.maxLength(MAX_IMPORT_ENTRIES, `A bundle may hold at most ${MAX_IMPORT_ENTRIES} resources`)),
      ),
    },
    { error: 'The file is not a FHIR Bundle' },
  ),
});
export type FhirImportBody = z.infer<typeof FhirImportBody>;

/** The resource's own identity when it has one, else its content: what "the same resource" means. */
export function importKey(r: Json): string {
  const id = identifiersOf(r).find((i) => typeof i.value === 'string');
  const basis = id
    ? `${r.resourceType}|${id.system ?? ''}|${id.value}`
    : `${r.resourceType}|content|${JSON.stringify({ ...r, id: undefined, meta: undefined })}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 40);
}

export interface Analysed {
  items: (FhirImportItem & { key: string; planned?: Planned; resource: Json; fullUrl?: string })[];
  sourcePatient?: string;
}

/** decorate: what another format (C-CDA) adds to a section item beyond what FHIR mapping gives (its codes), checked with the rest. */
export async function analyse(
  practiceId: string,
  patientId: string,
  body: FhirImportBody,
  decorate?: (resource: Json, input: Json) => void,
): Promise<Analysed> {
  if (!(await getPatient(practiceId, patientId))) throw new NotFoundError(PATIENT_NOT_FOUND);
  const present = await importedKeys(practiceId, patientId);
  const resources = (body.bundle.entry ?? []).map((e) => e.resource as Json);
  const bundle = { ...bundleContext(body.bundle.entry), practiceId };
  const seen = new Map<string, number>();
  const items = resources.map((resource, index) => {
    const fullUrl = body.bundle.entry?.[index]?.fullUrl;
    // Two entries alike in every field (two identical prescriptions) are two items, each with its own marker.
    const content = importKey(resource);
    const nth = (seen.get(content) ?? 0) + 1;
    seen.set(content, nth);
    const key = nth === 1 ? content : createHash('sha256').update(`${content}#${nth}`).digest('hex').slice(0, 40);
    const other = otherPatientOf(resource, bundle, fullUrl);
    const p: ReturnType<typeof plan> =
      other === undefined
        ? plan(resource, bundle)
        : {
            summary: summaryOf(resource, bundle),
            reason:
              resource.resourceType === 'Patient'
                ? 'Another patient: only the first patient in the bundle comes into this chart'
                : `It belongs to another patient in the bundle${other ? ` (${other})` : ''}`,
          };
    // A chart item Tidewell would refuse (a diagnosis dated in the future, …) is left out, and the preview says so.
    if (p.planned?.kind === 'section') {
      decorate?.(resource, p.planned.input);
      const parsed = p.planned.spec.input.safeParse(definedInput(p.planned.input));
      if (!parsed.success) p.reason = parsed.error.issues[0]?.message ?? 'Not valid';
      else p.planned.input = parsed.data as Json;
    }
    const action: FhirImportItem['action'] = p.reason ? 'skip' : present.has(key) ? 'present' : 'add';
    return {
      key,
      resource,
      fullUrl,
      planned: p.planned,
      resourceType: String(resource.resourceType),
      summary: p.summary,
      action,
      ...(p.reason ? { reason: p.reason } : {}),
    };
  });
  await planAppointments(practiceId, patientId, items as AppointmentItem[], (body.bundle.entry ?? []) as { fullUrl?: string; resource: Json }[], importKey);
  const source = resources.find((r) => r.resourceType === 'Patient');
  return { items, sourcePatient: source ? patientName(source) : undefined };
}

/** The other patient of the bundle a resource is about (its subject or patient), or undefined when it is about this one. */
function otherPatientOf(r: Json, bundle: BundleContext, fullUrl?: string): string | undefined {
  if (r.resourceType === 'Patient') return refsTo(fullUrl, r).some((ref) => bundle.otherPatients.has(ref)) ? patientName(r) : undefined;
  for (const ref of [r.subject?.reference, r.patient?.reference, r.beneficiary?.reference]) {
    if (typeof ref === 'string' && bundle.otherPatients.has(ref)) return bundle.otherPatients.get(ref) ?? '';
  }
  return undefined;
}

/** What the preview names a resource left out before it is planned. */
function summaryOf(r: Json, bundle: BundleContext): string {
  return r.resourceType === 'Patient' ? `Patient: ${patientName(r)}`.trim() : plan(r, bundle).summary;
}

const definedInput = (input: Json) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== ''));
const publicItem = ({ resourceType, summary, action, reason }: FhirImportItem) => ({ resourceType, summary, action, ...(reason ? { reason } : {}) });
const count = (items: FhirImportItem[], action: FhirImportItem['action']) => items.filter((i) => i.action === action).length;

/** POST …/fhir-import-preview: what the import would add, what is already here, and what it leaves out (and why). */
export async function previewImport(auth: AuthContext, patientId: string, raw: unknown): Promise<FhirImportPreview> {
  const body = parseOrThrow(FhirImportBody, raw);
  const { items, sourcePatient } = await analyse(auth.practiceId, patientId, body);
  await writeAudit(auth, { action: 'read', entity: 'fhir_import_preview', patientId, count: items.length });
  return { sourcePatient, add: count(items, 'add'), present: count(items, 'present'), skip: count(items, 'skip'), items: items.map(publicItem) };
}

/** POST …/fhir-import: adds what the preview listed as new; what another import added meanwhile is left alone. */
export async function importBundle(auth: AuthContext, patientId: string, raw: unknown, now = new Date()): Promise<FhirImportResult> {
  const body = parseOrThrow(FhirImportBody, raw);
  const { items } = await analyse(auth.practiceId, patientId, body);
  const added = await writeImport(auth, patientId, items, now);
  await writeAudit(auth, { action: 'create', entity: 'fhir_import', patientId, count: added });
  return { added, present: count(items, 'present'), skipped: count(items, 'skip'), items: items.map(publicItem) };
}

/** How a practice restored from its own export writes a conversation text back into its conversation (writeImport's texts are plain notes without it). */
export type WriteRestoredText = (note: Note, numbers: TextingNumbers) => Promise<unknown>;

/** Writes what analyse() planned as new; an item the store refuses turns to 'skip'. Returns how many were added. */
export async function writeImport(
  auth: AuthContext,
  patientId: string,
  items: Analysed['items'],
  now = new Date(),
  restoreText?: WriteRestoredText,
): Promise<number> {
  const at = now.toISOString();
  let added = 0;
  const vitals = new Map<string, Record<string, number>>();
  // Who measured them at the source, by the moment measured (a practice import matches them to a user here).
  const vitalAuthors = new Map<string, Pick<Extract<Planned, { kind: 'vital' }>, 'author' | 'authorUser'>>();
  const social = new Map<string, { question: string; startDate?: string; endDate?: string; notes?: string; answers: { answer: string; at?: string }[] }>();
  // Notes are written after every file is in place, so a file goes onto the note it came with
  // (context.related, as Tidewell's export writes it) when that note comes in with it.
  const notes = new Map<string, Note>();
  const pending: Note[] = [];
  const texts = new Map<Note, TextingNumbers>();
  const labNotes = new Map<string, Note>();
  const ordered = [...items.filter((i) => i.planned?.kind !== 'file'), ...items.filter((i) => i.planned?.kind === 'file')];
  const appointments: AppointmentItem[] = [];
  for (const item of ordered) {
    if (item.action !== 'add' || !item.planned) continue;
    const p = item.planned;
    if (p.kind === 'appointment') {
      appointments.push(item);
      continue;
    }
    if (p.kind === 'demographics') {
      if (!(await claimImportMarker(auth.practiceId, patientId, item.key, String(item.resource.resourceType), at))) continue;
      const current = await getPatient(auth.practiceId, patientId);
      await setPatientDemographics(auth.practiceId, patientId, mergeDemographics(current?.demographics, p.demographics), now);
      added++;
      continue;
    }
    // Checked before the marker is claimed, so a resource Tidewell cannot keep is never marked as brought in.
    if (p.kind === 'section') {
      if (!(await claimImportMarker(auth.practiceId, patientId, item.key, String(item.resource.resourceType), at))) continue;
      // The input was checked (and given its defaults) by the section's own rules in analyse().
      await createSectionItem(auth.practiceId, p.section, await buildStored(p.spec, patientId, p.input));
    } else {
      // A file is stored before its marker is claimed: one the store refuses is left out, and the import goes on.
      const stored = await storeAll(patientId, p);
      if (!stored) {
        Object.assign(item, { action: 'skip', reason: FILE_NOT_STORED });
        continue;
      }
      if (!(await claimImportMarker(auth.practiceId, patientId, item.key, String(item.resource.resourceType), at))) {
        await Promise.all(stored.map((f) => removeFile(f.key)));
        continue;
      }
      if (p.kind === 'vital') {
        vitals.set(p.at, { ...(vitals.get(p.at) ?? {}), ...p.values });
        if ((p.author || p.authorUser) && !vitalAuthors.has(p.at)) vitalAuthors.set(p.at, { author: p.author, authorUser: p.authorUser });
      } else if (p.kind === 'lab') {
        // The parts of one lab note (its reports, or one day's results without a report) make one note.
        let note = labNotes.get(p.group);
        if (note) note.data = mergeLabData(note.data as never, p.data) as Note['data'];
        else {
          note = importedNote(auth, patientId, at, { kind: 'note', noteType: 'LAB', status: 'SIGNED', at: p.at, text: '', data: { text: '', ...p.data } });
          labNotes.set(p.group, note);
          pending.push(note);
        }
        for (const host of p.hosts) notes.set(host, note);
        note.files.push(...stored);
      } else if (p.kind === 'file') {
        const host = p.related ? notes.get(p.related) : undefined;
        if (host) host.files.push(...stored);
        else
          pending.push({
            ...importedNote(auth, patientId, at, {
              kind: 'note',
              noteType: 'DOCUMENT',
              status: 'SIGNED',
              at: p.at,
              text: '',
              data: { text: '', formattedText: '', subject: p.name },
              author: p.author,
              authorUser: p.authorUser,
            }),
            files: stored,
          });
      } else if (p.kind === 'social') {
        const s = social.get(p.question) ?? { question: p.question, startDate: p.startDate, endDate: p.endDate, notes: p.notes, answers: [] };
        s.answers.push({ answer: p.answer, at: p.at });
        social.set(p.question, s);
      } else {
        const note = importedNote(auth, patientId, at, p);
        note.files.push(...stored);
        if (p.texting && restoreText) texts.set(note, p.texting);
        if (item.fullUrl) notes.set(item.fullUrl, note);
        pending.push(note);
      }
    }
    added++;
  }
  for (const note of pending) {
    const numbers = texts.get(note);
    if (numbers && restoreText) await restoreText(note, numbers);
    else await insertNote(auth.practiceId, note);
  }
  for (const [when, values] of vitals) {
    await insertNote(
      auth.practiceId,
      importedNote(auth, patientId, at, {
        kind: 'note',
        noteType: 'VITALS',
        status: 'SIGNED',
        at: when,
        text: '',
        data: { ...values, tempUnit: '°F', heightUnit: 'in', weightUnit: 'lb' },
        ...vitalAuthors.get(when),
      }),
    );
  }
  for (const s of social.values()) {
    const answers = s.answers.map((a) => ({ ident: randomUUID(), answer: a.answer, timestamp: a.at ?? at, userId: auth.userId }));
    await createSectionItem(
      auth.practiceId,
      'socialHistory',
      await buildStored(SOCIAL_HISTORY, patientId, {
        question: s.question,
        answers,
        startDate: s.startDate ?? '',
        endDate: s.endDate ?? '',
        notes: s.notes ?? '',
        pinned: false,
      }),
    );
  }
  added += await importAppointments(auth, patientId, appointments, {
    claim: (item) => claimImportMarker(auth.practiceId, patientId, item.key, String(item.resource.resourceType), at),
  });
  return added;
}

export const FILE_NOT_STORED = 'The file could not be stored';

type FileToStore = { name: string; contentType: string; bytes: Buffer };

/** Stores every file a planned item brings; undefined (and nothing left stored) when the store refuses one. */
async function storeAll(patientId: string, p: Planned): Promise<Note['files'] | undefined> {
  const files: FileToStore[] = p.kind === 'file' ? [p] : p.kind === 'lab' ? (p.file ? [p.file] : []) : p.kind === 'note' ? (p.files ?? []) : [];
  const stored: Note['files'] = [];
  for (const f of files) {
    try {
      stored.push(await storeFile(patientId, f));
    } catch (error) {
      log.warn('fhir import: file not stored', { patientId, error: error instanceof Error ? error.name : 'unknown' });
      await Promise.all(stored.map((s) => removeFile(s.key)));
      return undefined;
    }
  }
  return stored;
}

async function storeFile(patientId: string, p: FileToStore): Promise<Note['files'][number]> {
  const name = safeFileName(p.name);
  const key = `patients/${patientId}/documents/${randomUUID()}/${name}`;
  const { s3, bucket } = store();
  await s3.putObject({ bucket, key: storedKey(key) }, p.bytes, { contentType: p.contentType });
  return { key, name, contentType: p.contentType, size: p.bytes.length };
}

async function removeFile(key: string): Promise<void> {
  const { s3, bucket } = store();
  await s3.deleteObject({ bucket, key: storedKey(key) }).catch(() => undefined);
}

function importedNote(auth: AuthContext, patientId: string, at: string, p: Extract<Planned, { kind: 'note' }>): Note {
  // A text keeps its DELIVERED status; signing it is what makes it read-only.
  const text = p.noteType === 'SMS_LOG' || p.noteType === 'SMS';
  const signed = p.status === 'SIGNED' || text || p.signed === true;
  const history = p.signed === true || text;
  // A text the patient sent that nobody of the practice is named as receiving was taken by the texting line.
  const line = text && p.data?.direction === 'inbound' && !p.authorUser && !p.author;
  return {
    noteId: randomUUID(),
    noteType: p.noteType,
    status: p.status,
    signed: signed ? at : null,
    eventTimestamp: new Date(Date.parse(p.at) || Date.now()).toISOString(),
    timestamp: at,
    createdAt: at,
    data: p.data ?? { text: p.text, formattedText: p.formattedText ?? escapeHtml(p.text), ...(p.subject ? { subject: p.subject } : {}) },
    patientId,
    hidden: false,
    files: [],
    // Who wrote it at the source, when the bundle names them: not the user who brought it in.
    author: line
      ? { ...TEXTING_LINE }
      : (p.authorUser ?? (p.author ? { userId: '', name: p.author.slice(0, 200) } : { userId: auth.userId, name: auth.name || auth.email, email: auth.email })),
    onBehalfOf: null,
    noteVersion: 1,
    // A note matched to its author here was signed by them at the source: the signer stays the author.
    // A call's, fax's or text's note is read-only history that nobody signed at the source either.
    signedBy: signed && !history ? (p.authorUser ?? { userId: auth.userId, name: auth.name || auth.email, email: auth.email }) : null,
  };
}
