/**
 * `npm run practice -- import <slug> --from <export dir>`: a practice rebuilt from a whole-practice
 * FHIR Bulk Data export (Tidewell's own, or another system's NDJSON of the same resource types).
 *
 * The export is read from its folder here; grouping by patient, parts and the run itself are
 * shared with Settings > Data import (shared/fhir/practice-import/). Each patient's bundle goes to
 * the practice's API (POST /v1/practices/fhir-imports/patients, admins only, audited), which finds
 * or creates the patient and brings the chart in. Progress is printed and kept in a file beside the
 * export, so a run stopped half-way carries on from the next patient; the server's markers make any
 * run that repeats a patient add nothing.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ImportError, isNdjsonName, parseExport, type ParsedExport } from '../../shared/fhir/practice-import/export-files.js';
import { localFilePath } from '../../shared/fhir/practice-import/group.js';
import { REFUSED, runImport, type ImportSummary } from '../../shared/fhir/practice-import/run.js';

export { ImportError } from '../../shared/fhir/practice-import/export-files.js';
export { calendarNamed, groupByPatient, localFilePath, type PatientGroup } from '../../shared/fhir/practice-import/group.js';
export { INCLUDED, PART_BYTES, PART_RESOURCES, partsOf } from '../../shared/fhir/practice-import/parts.js';
export { INLINE_FILE_BYTES, type ImportSummary } from '../../shared/fhir/practice-import/run.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type ExportOnDisk = ParsedExport;

/** Every NDJSON file of the folder (a Tidewell export's batch parts Type.0000.ndjson too); OperationOutcome files are the export's errors, not data. */
export async function readExport(dir: string): Promise<ExportOnDisk> {
  if (!existsSync(dir)) throw new ImportError(`There is no folder ${dir}. Point --from at the folder the export was downloaded into.`);
  const names = (await readdir(dir)).filter(isNdjsonName).sort();
  if (names.length === 0) throw new ImportError(`${dir} holds no .ndjson files: download the export's files (manifest output) into it first.`);
  return parseExport(await Promise.all(names.map(async (name) => ({ name, text: await readFile(join(dir, name), 'utf8') }))));
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
  /** Patients sent at the same time (1 unless given; the CLI's default is IMPORT_CONCURRENCY). */
  concurrency?: number;
  out(line: string): void;
}

/** The CLI's patients in flight: enough to keep a deployed API busy without crowding a practice's other users. */
export const IMPORT_CONCURRENCY = 4;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(t: ImportTarget, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await (t.fetch ?? fetch)(`${t.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${t.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

const progressFile = (dir: string, apiUrl: string) => join(dir, `.import-progress-${apiUrl.replace(/[^A-Za-z0-9]+/g, '_').slice(0, 80)}.json`);

export async function importPractice(o: ImportOptions): Promise<ImportSummary> {
  const exported = await readExport(o.dir);
  const progressPath = progressFile(o.dir, o.apiUrl);
  try {
    return await runImport(
      { exported, where: o.dir, apiLabel: o.apiUrl, dryRun: o.dryRun, again: o.again, parts: o.parts, concurrency: o.concurrency, out: o.out },
      {
        call: (method, path, body) => call(o, method, path, body),
        put: async (url, bytes, contentType) => {
          const res = await (o.fetch ?? fetch)(url, { method: 'PUT', headers: { 'content-type': contentType }, body: new Uint8Array(bytes) });
          return { ok: res.ok, status: res.status };
        },
        readFile: async (path) => {
          const full = join(o.dir, path);
          return existsSync(full) ? new Uint8Array(await readFile(full)) : undefined;
        },
        progress: {
          load: async () => (existsSync(progressPath) ? ((JSON.parse(await readFile(progressPath, 'utf8')) as { done?: string[] }).done ?? []) : []),
          save: (done) => writeFile(progressPath, JSON.stringify({ apiUrl: o.apiUrl, done })),
        },
      },
    );
  } catch (error) {
    if (!(error instanceof ImportError) || error.kind !== 'refused') throw error;
    // The CLI's admin passes a token: the way out is a fresh one, and the progress file carries on.
    throw new ImportError(
      error.message === REFUSED
        ? 'The API refused the token: sign in as an admin of the practice imported into and pass its ID token in TIDEWELL_ADMIN_TOKEN.'
        : `${error.message} Run it again with an admin's fresh token; it carries on from this patient.`,
      'refused',
    );
  }
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
