/**
 * A practice rebuilt from its whole-practice FHIR export, patient by patient: the run the CLI
 * (`npm run practice -- import`) and Settings > Data import share. Each patient's bundle goes to
 * POST /v1/practices/fhir-imports/patients (admins only, audited) in parts; the patients done are
 * kept (a file beside the export, the browser's storage) so a stopped run carries on from the next
 * patient, and the server's markers make any patient sent again add nothing. Reading files, calling
 * the API and keeping progress are the caller's: this module is pure TS.
 */
import { ImportError, toBase64, type ParsedExport } from './export-files.js';
import { calendarNamed, emailOf, groupByPatient, label, localFilePath, refOf, type PatientGroup } from './group.js';
import { PART_BYTES, PART_RESOURCES, partsOf } from './parts.js';
import { IMPORT_UPLOAD_FOLDER, UPLOADED_FILE_EXTENSION } from './uploads.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The API takes at most 6 MB a request (a Lambda's payload; the local runtime refuses 10 MB with a
 * 413), and base64 adds a third: a file larger than this goes up on its own through the app's
 * presigned upload (POST /v1/s3/files, then a PUT of the bytes to storage) and the bundle names its
 * key in this extension of the attachment instead of carrying the bytes, so a patient of any size of
 * files fits a request. The import reads the bytes from storage and removes the upload after it.
 */
export const INLINE_FILE_BYTES = 1024 * 1024;
const isUploaded = (a: Json | undefined) => ((a?.extension as Json[] | undefined) ?? []).some((x) => x?.url === UPLOADED_FILE_EXTENSION);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface ImportIo {
  /** The practice's API, answering with its status and parsed body (never throwing for a 4xx). */
  call: ApiCall;
  /** A PUT of a file's bytes to a presigned storage url. */
  put(url: string, bytes: Uint8Array, contentType: string): Promise<{ ok: boolean; status: number }>;
  /** A file of the export's folder by its path there (files/<patient>/<name>), or nothing when it is not at hand. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** The patients (Patient/<id>) an earlier run brought in, and keeping them as each is done. */
  progress: { load(): Promise<string[]>; save(done: string[]): Promise<void> };
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
  /** Patients an earlier run brought in, not sent again. */
  resumed: number;
  /** Patients sent by this run (a stopped run sends fewer than it had). */
  sent: number;
  stopped: boolean;
}

/** One patient's outcome, as the screen lists it. */
export interface PatientOutcome {
  n: number;
  total: number;
  patient: string;
  patientId?: string;
  created: boolean;
  added: number;
  present: number;
  skipped: number;
  parts: number;
  uploaded: number;
  error?: string;
}

export interface RunOptions {
  exported: ParsedExport;
  /** Where the export was read from, for the first line (a folder, "the files picked"). */
  where: string;
  apiLabel: string;
  dryRun?: boolean;
  /** Every patient again, the progress aside (what was brought in before adds nothing). */
  again?: boolean;
  /** A part's bounds (PART_BYTES, PART_RESOURCES unless given). */
  parts?: { bytes?: number; resources?: number };
  out(line: string): void;
  /** Before each patient is sent (n of total). */
  onPatientStart?(n: number, total: number, patient: string): void;
  onPatient?(outcome: PatientOutcome): void;
  /** Stops the run before the next patient: the one being sent finishes. */
  signal?: AbortSignal;
  /** Patients sent at the same time (1 unless given): each is its own request, so a restore of thousands is not bound by one round trip at a time. */
  concurrency?: number;
}

/** What an export holds and would send, before anything is sent: the screen's summary and the CLI's dry run. */
export function describeExport(exported: ParsedExport, parts?: RunOptions['parts']) {
  const { groups, unassigned } = groupByPatient(exported.resources);
  const files = groups
    .flatMap((g) => g.entry)
    .flatMap((e) => ((e.resource.content as Json[] | undefined) ?? []).map((c) => c.attachment?.url))
    .filter((u): u is string => typeof u === 'string' && Boolean(localFilePath(u)));
  const payloads = groups
    .flatMap((g) => g.entry)
    .flatMap((e) => (Array.isArray(e.resource.payload) ? (e.resource.payload as Json[]).map((p) => p.contentAttachment?.url) : []))
    .filter((u): u is string => typeof u === 'string' && Boolean(localFilePath(u)));
  return {
    groups,
    unassigned,
    unassignedTypes: [...new Set(unassigned.map((r) => String(r.resourceType)))],
    requests: groups.reduce((n, g) => n + partsOf(g.entry, parts).length, 0),
    files,
    /** Every file of files/ the export names (documents', calls' and faxes'), each once. */
    filePaths: [...new Set([...files, ...payloads].map((u) => localFilePath(u)!))],
    practitioners: exported.resources.filter((r) => r.resourceType === 'Practitioner'),
    calendar: calendarNamed(exported.resources),
  };
}

/** One file up through the presigned upload; its stored key, or nothing when the practice refuses the file (its type), which then travels in the bundle for the import to say why it is left out. */
async function uploadFile(io: ImportIo, path: string, bytes: Uint8Array, contentType: string): Promise<string | undefined> {
  const name = path.split('/').at(-1) ?? 'file';
  const signed = await io.call('POST', '/v1/s3/files', { key: `${IMPORT_UPLOAD_FOLDER}/${name}`, contentType, size: bytes.length });
  if (signed.status === 400) return undefined;
  if (signed.status !== 200) throw new ImportError(`Uploading ${path} failed (${signed.status}): ${String(signed.body?.message ?? '')}`);
  const put = await io.put(String(signed.body.signedUrl), bytes, contentType);
  if (!put.ok) throw new ImportError(`Uploading ${path} to storage failed (${put.status}).`);
  return String(signed.body.key);
}

/**
 * Attachments whose file is in the export's folder carry its bytes (base64 data), as the per-patient
 * import reads them: a document's, and a call's recording or a fax's pages (a Communication's
 * payload). The url stays beside the data: a call or fax finds its bytes by it when only the
 * note's file document carries them, so a recording is not left out of the call it belongs to.
 */
async function withFiles(io: ImportIo, group: PatientGroup): Promise<{ entry: PatientGroup['entry']; files: number; uploaded: number; missing: string[] }> {
  const read = new Set<string>();
  const missing = new Set<string>();
  const sent = new Map<string, string>();
  const carry = async (a: Json | undefined): Promise<Json | undefined> => {
    if (!a?.url || a.data) return a;
    const path = localFilePath(String(a.url));
    if (!path) return a;
    const bytes = await io.readFile(path);
    if (!bytes) {
      missing.add(path);
      return a;
    }
    read.add(path);
    if (bytes.length > INLINE_FILE_BYTES) {
      const key = sent.get(path) ?? (await uploadFile(io, path, bytes, String(a.contentType ?? 'application/octet-stream')));
      if (key) {
        sent.set(path, key);
        return { ...a, extension: [...((a.extension as Json[] | undefined) ?? []), { url: UPLOADED_FILE_EXTENSION, valueString: key }] };
      }
    }
    return { ...a, data: toBase64(bytes) };
  };
  const documents = await Promise.all(
    group.entry.map(async (e) => {
      const r = e.resource;
      if (r.resourceType !== 'DocumentReference') return e;
      const content = await Promise.all(
        ((r.content as Json[] | undefined) ?? []).map(async (c) => (c.attachment ? { ...c, attachment: await carry(c.attachment as Json) } : c)),
      );
      return { ...e, resource: { ...r, content } };
    }),
  );
  // A file a document already carries is not sent twice: the import finds a payload's bytes by its url.
  const carried = new Set(
    documents.flatMap((e) =>
      ((e.resource.content as Json[] | undefined) ?? []).filter((c) => c.attachment?.data || isUploaded(c.attachment)).map((c) => String(c.attachment.url)),
    ),
  );
  const entry = await Promise.all(
    documents.map(async (e) => {
      const r = e.resource;
      if (r.resourceType !== 'Communication' || !Array.isArray(r.payload)) return e;
      const payload = await Promise.all(
        (r.payload as Json[]).map(async (p) =>
          p.contentAttachment && !carried.has(String(p.contentAttachment.url)) ? { ...p, contentAttachment: await carry(p.contentAttachment as Json) } : p,
        ),
      );
      return { ...e, resource: { ...r, payload } };
    }),
  );
  return { entry, files: read.size, uploaded: sent.size, missing: [...missing] };
}

/** Any success: the CLI sees the API's 201, the web's client a success without its status. */
const made2xx = (status: number) => status >= 200 && status < 300;

/** The appointment types and booking locations the export books that the practice lacks: read only, for the run to make them and the dry run to name them. */
async function calendarMissing(io: Pick<ImportIo, 'call'>, resources: Json[]) {
  const named = calendarNamed(resources);
  const missing = { types: [] as [string, number][], locations: [] as [string, unknown][] };
  if (named.types.size === 0 && named.locations.size === 0) return missing;
  const [types, locations] = await Promise.all([io.call('GET', '/v1/appointment-types'), io.call('GET', '/v1/booking-locations')]);
  if (types.status !== 200 || locations.status !== 200)
    throw new ImportError(`Reading the practice's appointment types and booking locations failed (${types.status}, ${locations.status}).`);
  const haveTypes = new Set(((types.body?.appointmentTypes ?? []) as Json[]).map((t) => String(t.name).trim().toLowerCase()));
  const haveLocations = new Set(((locations.body?.bookingLocations ?? []) as Json[]).map((l) => String(l.name).trim().toLowerCase()));
  missing.types = [...named.types].filter(([name]) => !haveTypes.has(name.toLowerCase()));
  missing.locations = [...named.locations].filter(([name]) => !haveLocations.has(name.toLowerCase()));
  return missing;
}

/** The appointment types and booking locations the export books that the practice lacks, made through its API (admins change them). */
async function prepareCalendar(io: ImportIo, resources: Json[]): Promise<ImportSummary['calendar']> {
  const missing = await calendarMissing(io, resources);
  const made: ImportSummary['calendar'] = { types: [], locations: [] };
  for (const [name, durationMinutes] of missing.types) {
    const res = await io.call('POST', '/v1/appointment-types', { name, durationMinutes });
    if (!made2xx(res.status)) throw new ImportError(`The appointment type ${name} could not be made (${res.status}): ${String(res.body?.message ?? '')}`);
    made.types.push(name);
  }
  for (const [name, address] of missing.locations) {
    const res = await io.call('POST', '/v1/booking-locations', { name, address });
    if (!made2xx(res.status)) throw new ImportError(`The booking location ${name} could not be made (${res.status}): ${String(res.body?.message ?? '')}`);
    made.locations.push(name);
  }
  return { types: made.types.sort(), locations: made.locations.sort() };
}

/** The practice's users, as the run matches the export's practitioners to them; a refusal says to sign in as an admin. */
async function readUsers(io: Pick<ImportIo, 'call'>): Promise<Json[]> {
  const users = await io.call('GET', '/v1/practices/users');
  if (users.status !== 200)
    throw users.status === 401 || users.status === 403
      ? new ImportError(REFUSED, 'refused')
      : new ImportError(`Reading the practice's users failed (${users.status}): ${JSON.stringify(users.body)}`);
  return (Array.isArray(users.body) ? users.body : (users.body?.users ?? [])) as Json[];
}

/** Practitioners' emails matched to the practice's users (each signs in with their own account); the others are listed for an admin to invite. */
export function matchUsers(practitioners: Json[], users: Json[]): ImportSummary['users'] {
  const emails = new Set(users.map((u) => String(u.emailAddress ?? u.email ?? '').toLowerCase()).filter(Boolean));
  const matched = new Set<string>();
  const unmatched = new Set<string>();
  for (const p of practitioners) {
    const email = emailOf(p);
    if (email) (emails.has(email) ? matched : unmatched).add(email);
  }
  return { matched: [...matched].sort(), unmatched: [...unmatched].sort() };
}

export const REFUSED = 'The API refused the import: sign in as an admin of the practice imported into.';

/** What an import would do, checked against the practice with reads only: the screen's dry run. */
export interface ImportPreview {
  patients: number;
  resources: number;
  counts: Record<string, number>;
  /** Requests the patients would be sent in (a large patient in parts). */
  requests: number;
  users: ImportSummary['users'];
  /** Appointment types and booking locations the import would make. */
  calendar: ImportSummary['calendar'];
  /** Every file of files/ the export names, and whether it is at hand. */
  files: { path: string; present: boolean }[];
  unassigned: { count: number; types: string[] };
}

/** The dry run against the practice: the export described as the CLI's --dry-run does, its practitioners matched to the users and its calendar to what exists, with GETs only; nothing is written. */
export async function previewImport(
  exported: ParsedExport,
  io: Pick<ImportIo, 'call'> & { hasFile(path: string): Promise<boolean> },
  parts?: RunOptions['parts'],
): Promise<ImportPreview> {
  const found = describeExport(exported, parts);
  const [users, calendar, files] = await Promise.all([
    readUsers(io),
    calendarMissing(io, exported.resources),
    Promise.all(found.filePaths.map(async (path) => ({ path, present: await io.hasFile(path) }))),
  ]);
  return {
    patients: found.groups.length,
    resources: exported.resources.length,
    counts: exported.counts,
    requests: found.requests,
    users: matchUsers(found.practitioners, users),
    calendar: { types: calendar.types.map(([n]) => n).sort(), locations: calendar.locations.map(([n]) => n).sort() },
    files: files.sort((a, b) => a.path.localeCompare(b.path)),
    unassigned: { count: found.unassigned.length, types: found.unassignedTypes },
  };
}

export async function runImport(o: RunOptions, io: ImportIo): Promise<ImportSummary> {
  const started = Date.now();
  const { exported } = o;
  const found = describeExport(exported, o.parts);
  const { groups } = found;
  const summary: ImportSummary = {
    patients: groups.length,
    created: 0,
    added: 0,
    present: 0,
    skipped: 0,
    files: 0,
    missingFiles: [],
    users: { matched: [], unmatched: [] },
    calendar: { types: [], locations: [] },
    leftOut: [],
    failed: [],
    seconds: 0,
    resumed: 0,
    sent: 0,
    stopped: false,
  };
  o.out(
    `Export in ${o.where}: ${groups.length} patients, ${exported.resources.length} resources (${Object.entries(exported.counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}), ${exported.bytes} bytes of NDJSON.`,
  );
  if (found.unassigned.length)
    o.out(`${found.unassigned.length} resources name no patient of the export and are left out: ${found.unassignedTypes.join(', ')}.`);
  if (o.dryRun) {
    o.out(
      `Would send ${groups.length} patients in ${found.requests} requests (a patient over ${o.parts?.resources ?? PART_RESOURCES} resources or ${o.parts?.bytes ?? PART_BYTES} bytes in parts; files carried inline add to that) to ${o.apiLabel}/v1/practices/fhir-imports/patients with ${found.files.length} attached files (dry run: nothing is sent).`,
    );
    o.out(`Would match ${found.practitioners.length} practitioners to the practice's users by email.`);
    const named = found.calendar;
    if (named.types.size || named.locations.size)
      o.out(
        `Would make the appointment types (${[...named.types.keys()].join(', ') || 'none'}) and booking locations (${[...named.locations.keys()].join(', ') || 'none'}) its appointments book, where the practice has none of that name.`,
      );
    summary.seconds = (Date.now() - started) / 1000;
    return summary;
  }
  summary.users = matchUsers(found.practitioners, await readUsers(io));
  summary.calendar = await prepareCalendar(io, exported.resources);
  if (summary.calendar.types.length || summary.calendar.locations.length)
    o.out(
      `Made for the export's appointments: ${[...summary.calendar.types.map((t) => `appointment type ${t}`), ...summary.calendar.locations.map((l) => `booking location ${l}`)].join(', ')}.`,
    );
  const done = new Set<string>(o.again ? [] : await io.progress.load());
  summary.resumed = groups.filter((g) => done.has(refOf(g.patient))).length;
  if (done.size) o.out(`Resuming: ${done.size} of ${groups.length} patients were brought in by an earlier run (--again sends them again).`);
  const leftOut = new Map<string, ImportSummary['leftOut'][number]>();
  // Progress is saved after each patient; saves queue behind each other so two patients finishing together cannot interleave one file.
  let saving = Promise.resolve();
  const saveProgress = () => (saving = saving.then(() => io.progress.save([...done])));
  const importOne = async (group: (typeof groups)[number], n: number): Promise<void> => {
    const id = refOf(group.patient);
    o.onPatientStart?.(n, groups.length, label(group.patient));
    const { entry, files, uploaded, missing } = await withFiles(io, group);
    summary.missingFiles.push(...missing);
    const parts = partsOf(entry, o.parts);
    const got = { created: false, added: 0, present: 0, skipped: 0, leftOut: [] as ImportSummary['leftOut'], patientId: undefined as string | undefined };
    let failure: string | undefined;
    summary.sent++;
    for (const [i, part] of parts.entries()) {
      const res = await io.call('POST', '/v1/practices/fhir-imports/patients', { bundle: { resourceType: 'Bundle', type: 'collection', entry: part } });
      if (res.status !== 200) {
        const error = typeof res.body === 'object' && res.body?.message ? String(res.body.message) : `HTTP ${res.status}`;
        failure = parts.length > 1 ? `part ${i + 1} of ${parts.length}: ${error}` : error;
        if (res.status === 401 || res.status === 403) {
          summary.failed.push({ patient: label(group.patient), error: failure });
          throw new ImportError(`The API refused the import (${res.status}): ${error}.`, 'refused');
        }
        break;
      }
      const r = res.body as { patientId?: string; created: boolean; added: number; present: number; skipped: number; leftOut: ImportSummary['leftOut'] };
      got.patientId ??= r.patientId;
      got.created ||= r.created;
      got.added += r.added;
      got.present += r.present;
      got.skipped += r.skipped;
      got.leftOut.push(...r.leftOut);
    }
    const outcome: PatientOutcome = {
      n,
      total: groups.length,
      patient: label(group.patient),
      patientId: got.patientId,
      created: got.created,
      added: got.added,
      present: got.present,
      skipped: got.skipped,
      parts: parts.length,
      uploaded,
      error: failure,
    };
    // What the parts before a failed one added stays: the rerun finds it and brings in only the rest.
    summary.added += got.added;
    summary.created += got.created ? 1 : 0;
    if (failure) {
      summary.failed.push({ patient: label(group.patient), error: failure });
      o.out(
        `[${n}/${groups.length}] ${label(group.patient)}: failed: ${failure}${got.added ? ` (${got.added} added before it; a rerun brings in the rest)` : ''}`,
      );
      o.onPatient?.(outcome);
      return;
    }
    summary.files += files;
    summary.present += got.present;
    summary.skipped += got.skipped;
    for (const l of got.leftOut) {
      const k = `${l.resourceType}|${l.reason}`;
      const entry = leftOut.get(k) ?? { ...l, count: 0 };
      entry.count += l.count;
      leftOut.set(k, entry);
    }
    done.add(id);
    await saveProgress();
    o.out(
      `[${n}/${groups.length}] ${label(group.patient)}: ${got.created ? 'new chart' : 'chart already here'}, ${got.added} added, ${got.present} already here, ${got.skipped} left out${uploaded ? `, ${uploaded} large files uploaded apart` : ''}${parts.length > 1 ? `, sent in ${parts.length} parts` : ''}`,
    );
    o.onPatient?.(outcome);
  };
  const queue = groups.map((group, i) => ({ group, n: i + 1 })).filter(({ group }) => !done.has(refOf(group.patient)));
  let refused: unknown;
  const worker = async () => {
    for (let next = queue.shift(); next && refused === undefined; next = queue.shift()) {
      if (o.signal?.aborted) {
        summary.stopped = true;
        return;
      }
      try {
        await importOne(next.group, next.n);
      } catch (error) {
        refused ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(o.concurrency ?? 1)) }, worker));
  await saving;
  if (refused !== undefined) throw refused;
  summary.leftOut = [...leftOut.values()].sort((a, b) => b.count - a.count);
  summary.seconds = (Date.now() - started) / 1000;
  o.out(
    `Done in ${summary.seconds.toFixed(1)} s: ${summary.created} new charts, ${summary.added} items added, ${summary.present} already here, ${summary.skipped} left out, ${summary.files} files.`,
  );
  if (summary.users.unmatched.length)
    o.out(`Practitioners with no user here (invite them, or their notes keep only their name): ${summary.users.unmatched.join(', ')}`);
  for (const l of summary.leftOut) o.out(`Left out: ${l.count} ${l.resourceType}: ${l.reason}`);
  if (summary.missingFiles.length) o.out(`Files named by the export but not in its folder: ${summary.missingFiles.length}`);
  if (summary.failed.length) o.out(`${summary.failed.length} patients failed; run it again to retry them.`);
  return summary;
}
