/**
 * `npm run practice -- import <slug> --from <export dir>`: a practice rebuilt from a whole-practice
 * FHIR Bulk Data export (Tidewell's own, or another system's NDJSON of the same resource types).
 *
 * The export is read here, grouped by patient (each patient with the resources that name them and
 * the practitioners, locations and medications those name), its attached files read from the
 * export's files/ folder and carried in the bundle; each patient's bundle goes to the practice's
 * API (POST /v1/practices/fhir-imports/patients, admins only, audited), which finds or creates the
 * patient and brings the chart in. Progress is printed and kept in a file beside the export, so a
 * run stopped half-way carries on from the next patient; the server's markers make any run that
 * repeats a patient add nothing.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IMPORT_UPLOAD_FOLDER, UPLOADED_FILE_EXTENSION } from '../../functions/core/fhir/bulk/import-uploads.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ExportOnDisk {
  resources: Json[];
  /** NDJSON files read, and their resources per type, as the export's counts would say. */
  counts: Record<string, number>;
  bytes: number;
}

/** Every NDJSON file of the folder (a Tidewell export's batch parts Type.0000.ndjson too); OperationOutcome files are the export's errors, not data. */
export async function readExport(dir: string): Promise<ExportOnDisk> {
  if (!existsSync(dir)) throw new ImportError(`There is no folder ${dir}. Point --from at the folder the export was downloaded into.`);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.ndjson')).sort();
  if (names.length === 0) throw new ImportError(`${dir} holds no .ndjson files: download the export's files (manifest output) into it first.`);
  const resources: Json[] = [];
  const counts: Record<string, number> = {};
  let bytes = 0;
  for (const name of names) {
    const text = await readFile(join(dir, name), 'utf8');
    bytes += Buffer.byteLength(text);
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let r: Json;
      try {
        r = JSON.parse(line) as Json;
      } catch {
        throw new ImportError(`${name} line ${i + 1} is not JSON: an NDJSON file holds one resource per line.`);
      }
      if (typeof r?.resourceType !== 'string') throw new ImportError(`${name} line ${i + 1} is not a FHIR resource (it has no resourceType).`);
      if (r.resourceType === 'OperationOutcome') return;
      resources.push(r);
      counts[r.resourceType] = (counts[r.resourceType] ?? 0) + 1;
    });
  }
  return { resources, counts, bytes };
}

export class ImportError extends Error {
  override name = 'ImportError';
}

function referencesIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) referencesIn(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'reference' && typeof v === 'string') into.push(v);
      else referencesIn(v, into);
    }
  }
  return into;
}

const refOf = (r: Json) => `${r.resourceType}/${r.id}`;
/** A reference as Type/id, whatever base it is written against (absolute urls of another server too). */
const relative = (ref: string) => /([A-Za-z]+\/[^/]+)$/.exec(ref.split('/_history/')[0]!)?.[1] ?? ref;

export interface PatientGroup {
  patient: Json;
  entry: { fullUrl: string; resource: Json }[];
}

/**
 * One group per Patient: the resources naming it (subject, patient, participant, sender, …) and,
 * once each, the resources of no patient those name (Practitioner, Location, Medication, …).
 * Resources naming no patient of the export are returned apart, to be listed.
 */
export function groupByPatient(resources: Json[]): { groups: PatientGroup[]; unassigned: Json[] } {
  const byRef = new Map(resources.filter((r) => r.id !== undefined).map((r) => [refOf(r), r]));
  const groups = new Map<string, PatientGroup>();
  for (const r of resources) if (r.resourceType === 'Patient') groups.set(refOf(r), { patient: r, entry: [{ fullUrl: refOf(r), resource: r }] });
  const unassigned: Json[] = [];
  const shared = new Set<Json>();
  const owned = new Map<Json, PatientGroup>();
  for (const r of resources) {
    if (r.resourceType === 'Patient') continue;
    const group = referencesIn(r).map((ref) => groups.get(relative(ref))).find(Boolean);
    if (group) owned.set(r, group);
    else shared.add(r);
  }
  for (const [r, group] of owned) group.entry.push({ fullUrl: refOf(r), resource: r });
  for (const group of groups.values()) {
    const inGroup = new Set(group.entry.map((e) => e.fullUrl));
    // What the patient's resources name, and what those name in turn (a PractitionerRole's Practitioner).
    for (let i = 0; i < group.entry.length; i++) {
      for (const ref of referencesIn(group.entry[i]!.resource)) {
        const target = byRef.get(relative(ref));
        if (target && shared.has(target) && !inGroup.has(refOf(target))) {
          inGroup.add(refOf(target));
          group.entry.push({ fullUrl: refOf(target), resource: target });
        }
      }
    }
  }
  const named = new Set([...groups.values()].flatMap((g) => g.entry.map((e) => e.resource)));
  for (const r of shared) if (!named.has(r) && !['Practitioner', 'Location', 'Organization', 'Medication', 'PractitionerRole'].includes(r.resourceType)) unassigned.push(r);
  return { groups: [...groups.values()], unassigned };
}

/** Where an attachment's url points inside the export's folder: a Tidewell download url's files/… path, or a relative path. */
export function localFilePath(url: string): string | undefined {
  const marker = /\/fhir-exports\/[^/]+\/files\/(files\/.+)$/.exec(url);
  const path = marker ? marker[1]! : /^[a-z][a-z0-9+.-]*:/i.test(url) ? undefined : url;
  if (!path) return undefined;
  const segments = path.split('/').map((s) => decodeURIComponent(s));
  return segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\')) ? undefined : segments.join('/');
}

/**
 * The API takes at most 6 MB a request (a Lambda's payload; the local runtime refuses 10 MB with a
 * 413), and base64 adds a third: a file larger than this goes up on its own through the app's
 * presigned upload (POST /v1/s3/files, then a PUT of the bytes to storage) and the bundle names its
 * key in this extension of the attachment instead of carrying the bytes, so a patient of any size of
 * files fits a request. The import reads the bytes from storage and removes the upload after it.
 */
export const INLINE_FILE_BYTES = 1024 * 1024;
const isUploaded = (a: Json | undefined) => ((a?.extension as Json[] | undefined) ?? []).some((x) => x?.url === UPLOADED_FILE_EXTENSION);

/** One file up through the presigned upload; its stored key, or nothing when the practice refuses the file (its type), which then travels in the bundle for the import to say why it is left out. */
async function uploadFile(t: ImportTarget, path: string, bytes: Buffer, contentType: string): Promise<string | undefined> {
  const name = path.split('/').at(-1) ?? 'file';
  const signed = await call(t, 'POST', '/v1/s3/files', { key: `${IMPORT_UPLOAD_FOLDER}/${name}`, contentType, size: bytes.length });
  if (signed.status === 400) return undefined;
  if (signed.status !== 200) throw new ImportError(`Uploading ${path} failed (${signed.status}): ${String(signed.body?.message ?? '')}`);
  const put = await (t.fetch ?? fetch)(String(signed.body.signedUrl), { method: 'PUT', headers: { 'content-type': contentType }, body: new Uint8Array(bytes) });
  if (!put.ok) throw new ImportError(`Uploading ${path} to storage failed (${put.status}).`);
  return String(signed.body.key);
}

/**
 * Attachments whose file is in the export's folder carry its bytes (base64 data), as the per-patient
 * import reads them: a document's, and a call's recording or a fax's pages (a Communication's
 * payload). The url stays beside the data: a call or fax finds its bytes by it when only the
 * note's file document carries them, so a recording is not left out of the call it belongs to.
 */
async function withFiles(dir: string, group: PatientGroup, upload?: (path: string, bytes: Buffer, contentType: string) => Promise<string | undefined>): Promise<{ entry: PatientGroup['entry']; files: number; uploaded: number; missing: string[] }> {
  const read = new Set<string>();
  const missing = new Set<string>();
  const sent = new Map<string, string>();
  const carry = async (a: Json | undefined): Promise<Json | undefined> => {
    if (!a?.url || a.data) return a;
    const path = localFilePath(String(a.url));
    if (!path) return a;
    const full = join(dir, path);
    if (!existsSync(full)) {
      missing.add(path);
      return a;
    }
    read.add(path);
    const bytes = await readFile(full);
    if (upload && bytes.length > INLINE_FILE_BYTES) {
      const key = sent.get(path) ?? (await upload(path, bytes, String(a.contentType ?? 'application/octet-stream')));
      if (key) {
        sent.set(path, key);
        return { ...a, extension: [...((a.extension as Json[] | undefined) ?? []), { url: UPLOADED_FILE_EXTENSION, valueString: key }] };
      }
    }
    return { ...a, data: bytes.toString('base64') };
  };
  const documents = await Promise.all(
    group.entry.map(async (e) => {
      const r = e.resource;
      if (r.resourceType !== 'DocumentReference') return e;
      const content = await Promise.all(((r.content as Json[] | undefined) ?? []).map(async (c) => (c.attachment ? { ...c, attachment: await carry(c.attachment as Json) } : c)));
      return { ...e, resource: { ...r, content } };
    }),
  );
  // A file a document already carries is not sent twice: the import finds a payload's bytes by its url.
  const carried = new Set(documents.flatMap((e) => ((e.resource.content as Json[] | undefined) ?? []).filter((c) => c.attachment?.data || isUploaded(c.attachment)).map((c) => String(c.attachment.url))));
  const entry = await Promise.all(
    documents.map(async (e) => {
      const r = e.resource;
      if (r.resourceType !== 'Communication' || !Array.isArray(r.payload)) return e;
      const payload = await Promise.all((r.payload as Json[]).map(async (p) => (p.contentAttachment && !carried.has(String(p.contentAttachment.url)) ? { ...p, contentAttachment: await carry(p.contentAttachment as Json) } : p)));
      return { ...e, resource: { ...r, payload } };
    }),
  );
  return { entry, files: read.size, uploaded: sent.size, missing: [...missing] };
}

/**
 * A request carries at most 6 MB (a Lambda's payload; base64 files inline count in full) and a bundle
 * 5,000 resources, and API Gateway answers within 29 s: a patient of ten years (thousands of notes,
 * results and texts) is sent in parts under 4 MiB and 500 resources. A resource takes about 20 ms to
 * write locally (its marker and what it makes), so a part is written in about 10 s, within the gateway's limit.
 */
export const PART_BYTES = 4 * 1024 * 1024;
export const PART_RESOURCES = 500;
/** Resources of no patient that the patient's resources name: sent with every part that names them, for the server to resolve. */
const CONTEXT_TYPES = new Set(['Practitioner', 'PractitionerRole', 'Location', 'Organization', 'Medication']);
/** An entry repeated in a later part only so references resolve: read by the import, not brought in again (FHIR's search mode for an included resource). */
export const INCLUDED = { mode: 'include' } as const;

type Entry = PatientGroup['entry'][number] & { search?: { mode: string } };

/** The UTC day an Observation was measured: the import makes one vitals note per moment and one lab note per day of results. */
function observationDay(r: Json): string | undefined {
  const when = r.effectiveDateTime ?? r.effectivePeriod?.start ?? r.effectiveInstant ?? r.issued;
  if (typeof when !== 'string') return undefined;
  return /T/.test(when) && !Number.isNaN(Date.parse(when)) ? new Date(Date.parse(when)).toISOString().slice(0, 10) : when.slice(0, 10);
}

const isSocial = (r: Json) => ((r.category as Json[] | undefined) ?? []).some((c) => ((c.coding as Json[] | undefined) ?? []).some((x) => x.code === 'social-history'));

/**
 * What the import reads together must come in one request: a resource and what it names (a call and
 * its note, a report and its results, a file and its note), resources of one identity (a fax and its
 * note share the fax's id, a lab note's report, orders and results the note's), a payload and the
 * document carrying its file (same url), one moment's or day's Observations (one vitals or lab note),
 * a question's social history answers, the medication list with the prescriptions it holds, and a
 * series with its occurrences. These are the clusters a patient is cut between, never inside.
 */
function tokensOf(e: Entry, skip: Set<string>): string[] {
  const r = e.resource;
  const tokens = [e.fullUrl, refOf(r), ...referencesIn(r).map(relative)].filter((t) => !skip.has(t)).map((t) => `ref|${t}`);
  for (const id of (r.identifier as Json[] | undefined) ?? []) {
    if (typeof id?.value !== 'string') continue;
    // Tidewell's ids name the kind last (…/<practice>/fax, …/note): one record's resources share the rest.
    tokens.push(String(id.system ?? '').startsWith('https://tidewell.app/fhir/identifier/') ? `tw|${String(id.system).replace(/\/[^/]+$/, '')}|${id.value.split('/')[0]}` : `id|${String(id.system ?? '')}|${id.value}`);
  }
  for (const c of (r.content as Json[] | undefined) ?? []) if (c.attachment?.url) tokens.push(`url|${String(c.attachment.url)}`);
  for (const p of (r.payload as Json[] | undefined) ?? []) if (p.contentAttachment?.url) tokens.push(`url|${String(p.contentAttachment.url)}`);
  if (r.resourceType === 'Observation') tokens.push(isSocial(r) ? 'social' : `day|${observationDay(r) ?? ''}`);
  if (['MedicationStatement', 'MedicationRequest', 'MedicationDispense'].includes(r.resourceType)) tokens.push('medications');
  if (r.resourceType === 'Appointment') tokens.push('appointments');
  return tokens;
}

const bytesOf = (e: Entry) => Buffer.byteLength(JSON.stringify(e)) + 1;

/** Resources referenced before what references them (a report's results before the report, a note before its file). */
function inReferenceOrder(entries: Entry[]): Entry[] {
  const byRef = new Map<string, Entry>();
  for (const e of entries) for (const ref of [e.fullUrl, refOf(e.resource)]) byRef.set(ref, e);
  const out: Entry[] = [];
  const state = new Map<Entry, 'visiting' | 'done'>();
  const visit = (e: Entry) => {
    if (state.has(e)) return;
    state.set(e, 'visiting');
    for (const ref of referencesIn(e.resource)) {
      const target = byRef.get(relative(ref));
      if (target && target !== e) visit(target);
    }
    state.set(e, 'done');
    out.push(e);
  };
  entries.forEach(visit);
  return out;
}

/**
 * One patient's bundle as the requests it is sent in: each at most `bytes` of JSON and `resources`
 * entries, cut only between clusters (tokensOf), the Patient first in each. The first part carries
 * the patient and every practitioner, location and medication of the group; a later part repeats the
 * Patient and those its resources name, marked included, so the chart is found and every reference
 * resolves while nothing is brought in twice. A cluster larger than a part goes alone.
 */
export function partsOf(entry: Entry[], limits: { bytes?: number; resources?: number } = {}): Entry[][] {
  const maxBytes = limits.bytes ?? PART_BYTES;
  const maxResources = limits.resources ?? PART_RESOURCES;
  const patient = entry.find((e) => e.resource.resourceType === 'Patient')!;
  const context = entry.filter((e) => CONTEXT_TYPES.has(e.resource.resourceType));
  const own = entry.filter((e) => e !== patient && !context.includes(e));
  const skip = new Set([patient, ...context].flatMap((e) => [e.fullUrl, refOf(e.resource)]));
  // Clusters by shared tokens (union-find over the resources of the patient).
  const parent = own.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const firstWith = new Map<string, number>();
  own.forEach((e, i) => {
    for (const t of tokensOf(e, skip)) {
      const j = firstWith.get(t);
      if (j === undefined) firstWith.set(t, i);
      else parent[root(i)] = root(j);
    }
  });
  const clusters = new Map<number, Entry[]>();
  own.forEach((e, i) => clusters.set(root(i), [...(clusters.get(root(i)) ?? []), e]));
  const contextByRef = new Map(context.flatMap((e) => [e.fullUrl, refOf(e.resource)].map((ref) => [ref, e] as const)));
  /** The context a part's resources name, and what that names in turn (a role's practitioner). */
  const named = (members: Entry[]) => {
    const found = new Set<Entry>();
    const walk = (r: Json) => {
      for (const ref of referencesIn(r)) {
        const c = contextByRef.get(relative(ref));
        if (c && !found.has(c)) {
          found.add(c);
          walk(c.resource);
        }
      }
    };
    members.forEach((m) => walk(m.resource));
    return context.filter((c) => found.has(c));
  };
  const parts: Entry[][] = [];
  let members: Entry[] = [];
  let size = 0;
  const head = () => (parts.length === 0 ? [patient, ...context] : [{ ...patient, search: { ...INCLUDED } }, ...named(members).map((c) => ({ ...c, search: { ...INCLUDED } }))]);
  const close = () => {
    parts.push([...head(), ...inReferenceOrder(members)]);
    members = [];
    size = 0;
  };
  const headBytes = bytesOf(patient) + context.reduce((n, c) => n + bytesOf(c), 0) + 200;
  for (const cluster of clusters.values()) {
    const bytes = cluster.reduce((n, e) => n + bytesOf(e), 0);
    if (members.length && (size + bytes + headBytes > maxBytes || members.length + cluster.length + 1 + context.length > maxResources)) close();
    members.push(...cluster);
    size += bytes;
  }
  if (members.length || parts.length === 0) close();
  return parts;
}

export interface ImportTarget {
  /** The practice's API base (its apiUrl output). */
  apiUrl: string;
  /** An admin's ID token of the practice imported into. */
  token: string;
  fetch?: typeof fetch;
}

export interface ImportOptions extends ImportTarget {
  dir: string;
  dryRun?: boolean;
  /** Every patient again, the progress file aside (what was brought in before adds nothing). */
  again?: boolean;
  /** A part's bounds (PART_BYTES, PART_RESOURCES unless given). */
  parts?: { bytes?: number; resources?: number };
  out(line: string): void;
}

export interface ImportSummary {
  patients: number;
  created: number;
  added: number;
  present: number;
  skipped: number;
  files: number;
  missingFiles: string[];
  users: { matched: string[]; unmatched: string[] };
  /** Appointment types and booking locations the export's appointments name that the practice lacked: made before the patients, so their appointments can be booked. */
  calendar: { types: string[]; locations: string[] };
  leftOut: { resourceType: string; reason: string; count: number }[];
  failed: { patient: string; error: string }[];
  seconds: number;
}

async function call(t: ImportTarget, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await (t.fetch ?? fetch)(`${t.apiUrl}${path}`, { method, headers: { authorization: `Bearer ${t.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

const emailOf = (r: Json) => ((r.telecom as Json[] | undefined) ?? []).find((t) => t.system === 'email' && typeof t.value === 'string')?.value?.toLowerCase() as string | undefined;
const nameOf = (r: Json) => {
  const n = (r.name as Json[] | undefined)?.[0];
  return String(n?.text || [...(n?.given ?? []), n?.family].filter(Boolean).join(' ') || r.id);
};
const label = (p: Json) => `${nameOf(p)} (Patient/${String(p.id)})`;

const progressFile = (dir: string, apiUrl: string) => join(dir, `.import-progress-${apiUrl.replace(/[^A-Za-z0-9]+/g, '_').slice(0, 80)}.json`);

/** What the export's appointments book: their types (by name, with the length first seen) and the booking locations they name. */
export function calendarNamed(resources: Json[]): { types: Map<string, number>; locations: Map<string, string> } {
  const byRef = new Map(resources.filter((r) => r.resourceType === 'Location' && r.id !== undefined).map((r) => [refOf(r), r]));
  const types = new Map<string, number>();
  const locations = new Map<string, string>();
  for (const a of resources.filter((r) => r.resourceType === 'Appointment')) {
    const type = String(a.appointmentType?.text ?? '').trim();
    const minutes = Number(a.minutesDuration) || Math.round((Date.parse(a.end) - Date.parse(a.start)) / 60_000);
    if (type && ![...types.keys()].some((t) => t.toLowerCase() === type.toLowerCase())) types.set(type, Number.isInteger(minutes) && minutes > 0 ? minutes : 30);
    for (const p of (a.participant as Json[] | undefined) ?? []) {
      const ref = p.actor?.reference;
      const location = typeof ref === 'string' && relative(ref).startsWith('Location/') ? byRef.get(relative(ref)) : undefined;
      const name = String(location?.name ?? (typeof ref === 'string' && relative(ref).startsWith('Location/') ? (p.actor.display ?? '') : '')).trim();
      if (name && !locations.has(name)) locations.set(name, String(location?.address?.text ?? [...(location?.address?.line ?? []), location?.address?.city, location?.address?.state, location?.address?.postalCode].filter(Boolean).join(', ')));
    }
  }
  return { types, locations };
}

/** The appointment types and booking locations the export books that the practice lacks, made through its API (admins change them). */
async function prepareCalendar(o: ImportOptions, resources: Json[]): Promise<ImportSummary['calendar']> {
  const named = calendarNamed(resources);
  const made: ImportSummary['calendar'] = { types: [], locations: [] };
  if (named.types.size === 0 && named.locations.size === 0) return made;
  const [types, locations] = await Promise.all([call(o, 'GET', '/v1/appointment-types'), call(o, 'GET', '/v1/booking-locations')]);
  if (types.status !== 200 || locations.status !== 200) throw new ImportError(`Reading the practice's appointment types and booking locations failed (${types.status}, ${locations.status}).`);
  const haveTypes = new Set(((types.body?.appointmentTypes ?? []) as Json[]).map((t) => String(t.name).trim().toLowerCase()));
  const haveLocations = new Set(((locations.body?.bookingLocations ?? []) as Json[]).map((l) => String(l.name).trim().toLowerCase()));
  for (const [name, durationMinutes] of named.types) {
    if (haveTypes.has(name.toLowerCase())) continue;
    const res = await call(o, 'POST', '/v1/appointment-types', { name, durationMinutes });
    if (res.status !== 201) throw new ImportError(`The appointment type ${name} could not be made (${res.status}): ${String(res.body?.message ?? '')}`);
    made.types.push(name);
  }
  for (const [name, address] of named.locations) {
    if (haveLocations.has(name.toLowerCase())) continue;
    const res = await call(o, 'POST', '/v1/booking-locations', { name, address });
    if (res.status !== 201) throw new ImportError(`The booking location ${name} could not be made (${res.status}): ${String(res.body?.message ?? '')}`);
    made.locations.push(name);
  }
  return { types: made.types.sort(), locations: made.locations.sort() };
}

export async function importPractice(o: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const exported = await readExport(o.dir);
  const { groups, unassigned } = groupByPatient(exported.resources);
  const practitioners = exported.resources.filter((r) => r.resourceType === 'Practitioner');
  const summary: ImportSummary = { patients: groups.length, created: 0, added: 0, present: 0, skipped: 0, files: 0, missingFiles: [], users: { matched: [], unmatched: [] }, calendar: { types: [], locations: [] }, leftOut: [], failed: [], seconds: 0 };
  o.out(`Export in ${o.dir}: ${groups.length} patients, ${exported.resources.length} resources (${Object.entries(exported.counts).map(([t, n]) => `${t} ${n}`).join(', ')}), ${exported.bytes} bytes of NDJSON.`);
  if (unassigned.length) o.out(`${unassigned.length} resources name no patient of the export and are left out: ${[...new Set(unassigned.map((r) => r.resourceType))].join(', ')}.`);
  if (o.dryRun) {
    const files = groups.flatMap((g) => g.entry).flatMap((e) => ((e.resource.content as Json[] | undefined) ?? []).map((c) => c.attachment?.url)).filter((u): u is string => typeof u === 'string' && Boolean(localFilePath(u)));
    const requests = groups.reduce((n, g) => n + partsOf(g.entry, o.parts).length, 0);
    o.out(`Would send ${groups.length} patients in ${requests} requests (a patient over ${o.parts?.resources ?? PART_RESOURCES} resources or ${o.parts?.bytes ?? PART_BYTES} bytes in parts; files carried inline add to that) to ${o.apiUrl}/v1/practices/fhir-imports/patients with ${files.length} attached files (dry run: nothing is sent).`);
    o.out(`Would match ${practitioners.length} practitioners to the practice's users by email.`);
    const named = calendarNamed(exported.resources);
    if (named.types.size || named.locations.size) o.out(`Would make the appointment types (${[...named.types.keys()].join(', ') || 'none'}) and booking locations (${[...named.locations.keys()].join(', ') || 'none'}) its appointments book, where the practice has none of that name.`);
    summary.seconds = (Date.now() - started) / 1000;
    return summary;
  }
  // Users are the practice's own (each signs in with their own account): matched by email, the others listed for an admin to invite.
  const users = await call(o, 'GET', '/v1/practices/users');
  if (users.status !== 200) throw new ImportError(users.status === 401 || users.status === 403 ? 'The API refused the token: sign in as an admin of the practice imported into and pass its ID token in TIDEWELL_ADMIN_TOKEN.' : `Reading the practice's users failed (${users.status}): ${JSON.stringify(users.body)}`);
  const list = (Array.isArray(users.body) ? users.body : (users.body?.users ?? [])) as Json[];
  const emails = new Set(list.map((u) => String(u.emailAddress ?? u.email ?? '').toLowerCase()).filter(Boolean));
  for (const p of practitioners) {
    const email = emailOf(p);
    if (!email) continue;
    (emails.has(email) ? summary.users.matched : summary.users.unmatched).push(email);
  }
  summary.users.matched = [...new Set(summary.users.matched)].sort();
  summary.users.unmatched = [...new Set(summary.users.unmatched)].sort();
  summary.calendar = await prepareCalendar(o, exported.resources);
  if (summary.calendar.types.length || summary.calendar.locations.length) o.out(`Made for the export's appointments: ${[...summary.calendar.types.map((t) => `appointment type ${t}`), ...summary.calendar.locations.map((l) => `booking location ${l}`)].join(', ')}.`);
  const progressPath = progressFile(o.dir, o.apiUrl);
  const done = new Set<string>(!o.again && existsSync(progressPath) ? ((JSON.parse(await readFile(progressPath, 'utf8')) as { done?: string[] }).done ?? []) : []);
  if (done.size) o.out(`Resuming: ${done.size} of ${groups.length} patients were brought in by an earlier run (--again sends them again).`);
  const leftOut = new Map<string, ImportSummary['leftOut'][number]>();
  let n = 0;
  for (const group of groups) {
    n++;
    const id = refOf(group.patient);
    if (done.has(id)) continue;
    const { entry, files, uploaded, missing } = await withFiles(o.dir, group, (path, bytes, type) => uploadFile(o, path, bytes, type));
    summary.missingFiles.push(...missing);
    const parts = partsOf(entry, o.parts);
    const got = { created: false, added: 0, present: 0, skipped: 0, leftOut: [] as ImportSummary['leftOut'] };
    let failure: string | undefined;
    for (const [i, part] of parts.entries()) {
      const res = await call(o, 'POST', '/v1/practices/fhir-imports/patients', { bundle: { resourceType: 'Bundle', type: 'collection', entry: part } });
      if (res.status !== 200) {
        const error = typeof res.body === 'object' && res.body?.message ? String(res.body.message) : `HTTP ${res.status}`;
        failure = parts.length > 1 ? `part ${i + 1} of ${parts.length}: ${error}` : error;
        if (res.status === 401 || res.status === 403) {
          summary.failed.push({ patient: label(group.patient), error: failure });
          throw new ImportError(`The API refused the import (${res.status}): ${error}. Run it again with an admin's fresh token; it carries on from this patient.`);
        }
        break;
      }
      const r = res.body as { created: boolean; added: number; present: number; skipped: number; leftOut: ImportSummary['leftOut'] };
      got.created ||= r.created;
      got.added += r.added;
      got.present += r.present;
      got.skipped += r.skipped;
      got.leftOut.push(...r.leftOut);
    }
    // What the parts before a failed one added stays: the rerun finds it and brings in only the rest.
    summary.added += got.added;
    summary.created += got.created ? 1 : 0;
    if (failure) {
      summary.failed.push({ patient: label(group.patient), error: failure });
      o.out(`[${n}/${groups.length}] ${label(group.patient)}: failed: ${failure}${got.added ? ` (${got.added} added before it; a rerun brings in the rest)` : ''}`);
      continue;
    }
    const r = got;
    summary.files += files;
    summary.present += r.present;
    summary.skipped += r.skipped;
    for (const l of r.leftOut) {
      const k = `${l.resourceType}|${l.reason}`;
      const entry = leftOut.get(k) ?? { ...l, count: 0 };
      entry.count += l.count;
      leftOut.set(k, entry);
    }
    done.add(id);
    await writeFile(progressPath, JSON.stringify({ apiUrl: o.apiUrl, done: [...done] }));
    o.out(`[${n}/${groups.length}] ${label(group.patient)}: ${r.created ? 'new chart' : 'chart already here'}, ${r.added} added, ${r.present} already here, ${r.skipped} left out${uploaded ? `, ${uploaded} large files uploaded apart` : ''}${parts.length > 1 ? `, sent in ${parts.length} parts` : ''}`);
  }
  summary.leftOut = [...leftOut.values()].sort((a, b) => b.count - a.count);
  summary.seconds = (Date.now() - started) / 1000;
  o.out(`Done in ${summary.seconds.toFixed(1)} s: ${summary.created} new charts, ${summary.added} items added, ${summary.present} already here, ${summary.skipped} left out, ${summary.files} files.`);
  if (summary.users.unmatched.length) o.out(`Practitioners with no user here (invite them, or their notes keep only their name): ${summary.users.unmatched.join(', ')}`);
  for (const l of summary.leftOut) o.out(`Left out: ${l.count} ${l.resourceType}: ${l.reason}`);
  if (summary.missingFiles.length) o.out(`Files named by the export but not in its folder: ${summary.missingFiles.length}`);
  if (summary.failed.length) o.out(`${summary.failed.length} patients failed; run it again to retry them.`);
  return summary;
}

const BULK_FILES_EXTENSION = 'https://tidewell.health/fhir/bulk/files';

/**
 * A completed Tidewell export into a folder, as `--from` reads it: the NDJSON files, manifest.json,
 * and each attached file under files/<patientId>/ (its download route answers with a short-lived
 * link, fetched without the token: the token is for the API only).
 */
export async function downloadExport(source: ImportTarget, exportId: string, dir: string): Promise<{ files: number; bytes: number }> {
  const { mkdir } = await import('node:fs/promises');
  const { dirname } = await import('node:path');
  const get = source.fetch ?? fetch;
  const view = await call(source, 'GET', `/v1/practices/fhir-exports/${encodeURIComponent(exportId)}`);
  if (view.status !== 200) throw new ImportError(`The export ${exportId} could not be read (${view.status}).`);
  if (view.body.status !== 'completed') throw new ImportError(`The export ${exportId} is ${String(view.body.status)}, not completed.`);
  await mkdir(dir, { recursive: true });
  let bytes = 0;
  const save = async (path: string, body: Uint8Array) => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), body);
    bytes += body.length;
  };
  for (const f of view.body.files as { name: string; url: string }[]) {
    const res = await get(f.url);
    if (!res.ok) throw new ImportError(`${f.name} could not be downloaded (${res.status}).`);
    await save(f.name, new Uint8Array(await res.arrayBuffer()));
  }
  const manifest = (await (await get(String(view.body.manifestUrl))).json()) as Json;
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1));
  const attached = ((manifest.extension?.[BULK_FILES_EXTENSION]?.files as Json[] | undefined) ?? []).map((f) => String(f.url));
  for (const url of attached) {
    const path = localFilePath(url);
    if (!path) continue;
    const link = await get(url, { headers: { authorization: `Bearer ${source.token}` }, redirect: 'manual' });
    const location = link.headers.get('location');
    if (link.status !== 302 || !location) throw new ImportError(`${path} could not be downloaded (${link.status}).`);
    const res = await get(location);
    if (!res.ok) throw new ImportError(`${path} could not be downloaded (${res.status}).`);
    await save(path, new Uint8Array(await res.arrayBuffer()));
  }
  return { files: attached.length, bytes };
}
