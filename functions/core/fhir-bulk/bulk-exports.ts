/**
 * Starting, following and resuming the whole-practice FHIR export (routes in the practice group,
 * which serves Settings). The work itself runs in the state machine; this module only writes the
 * export's record, starts executions and hands out expiring links.
 */
import { randomUUID } from 'node:crypto';
import { FHIR_BULK_MESSAGES, type BulkDataManifest, type FhirBulkExport, type FhirBulkExportView } from '../../../shared/chart/fhir-bulk.js';
import type { WorkflowAdapter } from '../../lib/adapters/workflow.js';
import { S3ObjectsError } from '../../lib/adapters/s3-objects.js';
import { store } from './files-store.js';
import { writeAudit, writeAuditForPatients } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { HttpResponse, type HttpEvent } from '../../lib/http/group-handler.js';
import { createBulkExport, getBulkExport, listBulkExports, updateBulkExport, type FhirBulkRecord } from '../../data/fhir-bulk/bulk-export-repository.js';
import { BULK_FILES_EXTENSION, bulkFileIndexFolder, fileIndexName, type BulkBatchIndex } from './bulk-files.js';
import { bulkFolder, partName, type FhirBulkState } from './bulk-steps.js';

/** How long the manifest's and files' links work. */
export const BULK_LINK_SECONDS = 15 * 60;
const STOPPED_UNEXPECTEDLY = 'The export stopped unexpectedly (its run ended without finishing). Resume it to carry on.';

let workflow: WorkflowAdapter | undefined;
async function workflows(): Promise<WorkflowAdapter> {
  workflow ??= (await import('../../lib/adapters/workflow.js')).workflowAdapterFromEnv();
  return workflow;
}

function stateMachineArn(): string {
  const arn = process.env.FHIR_EXPORT_STATE_MACHINE_ARN;
  if (!arn) throw new Error('FHIR_EXPORT_STATE_MACHINE_ARN is not set');
  return arn;
}

function publicView(record: FhirBulkRecord): FhirBulkExport {
  const {
    request: _r,
    apiBase: _a,
    executionArn: _e,
    nextBatch: _n,
    cursor: _c,
    listingDone: _l,
    parts: _p,
    practitionerBytes: _b,
    sharedBytes: _s,
    ...view
  } = record;
  return view;
}

async function run(auth: AuthContext, record: FhirBulkRecord): Promise<string> {
  const input: FhirBulkState = { practiceId: auth.practiceId, exportId: record.exportId, attempt: record.attempt };
  const { executionArn } = await (await workflows()).start({ stateMachineArn: stateMachineArn(), input, name: `${record.exportId}-${record.attempt}` });
  await updateBulkExport(auth.practiceId, record.exportId, { executionArn }, { attempt: record.attempt });
  return executionArn;
}

/**
 * A run recorded as running whose execution has stopped without finishing (a timeout of the whole
 * machine, a local runtime restarted mid-run) is shown as failed, so it can be resumed.
 */
async function settled(practiceId: string, record: FhirBulkRecord): Promise<FhirBulkRecord> {
  if (record.status !== 'running' || !record.executionArn) return record;
  let stopped: boolean;
  try {
    const execution = await (await workflows()).describe(record.executionArn);
    stopped = execution.status !== 'RUNNING';
  } catch (error) {
    if ((error as Error)?.name !== 'ExecutionDoesNotExist') throw error;
    stopped = true;
  }
  if (!stopped) return record;
  // The execution may have finished between the record's read and the describe: read it again.
  const latest = (await getBulkExport(practiceId, record.exportId)) ?? record;
  if (latest.status !== 'running') return latest;
  await updateBulkExport(practiceId, latest.exportId, { status: 'failed', error: STOPPED_UNEXPECTEDLY }, { attempt: latest.attempt, status: 'running' });
  return { ...latest, status: 'failed', error: STOPPED_UNEXPECTEDLY };
}

/**
 * The API's base URL as this request reached it: the host API Gateway names and the path the API
 * is served under (API_BASE_PATH: none deployed, '/api' locally). The manifest's urls are under it;
 * the Lambda's environment cannot name the API, which names the Lambda.
 */
function apiBaseOfRequest(event: HttpEvent | undefined): string {
  const host = event?.requestContext?.domainName ?? event?.headers?.host ?? 'localhost';
  const scheme = /^(localhost|127\.0\.0\.1)(:|$)/.test(host) ? 'http' : 'https';
  return `${scheme}://${host}${process.env.API_BASE_PATH ?? ''}`;
}

/** POST /v1/practices/fhir-exports: one export at a time; the admin is told when it is ready. */
export async function startBulkExport(auth: AuthContext, event?: HttpEvent): Promise<FhirBulkExport> {
  const running = (await Promise.all((await listBulkExports(auth.practiceId)).map((r) => settled(auth.practiceId, r)))).find((r) => r.status === 'running');
  if (running) throw new ConflictError(FHIR_BULK_MESSAGES.alreadyRunning, { exportId: running.exportId });
  const apiBase = apiBaseOfRequest(event);
  const record: FhirBulkRecord = {
    exportId: randomUUID(),
    status: 'running',
    startedAt: new Date().toISOString(),
    startedBy: { userId: auth.userId, name: auth.name, email: auth.email, role: auth.role, ...(auth.superUser ? { superUser: true } : {}) },
    patientsDone: 0,
    patientsTotal: 0,
    batchesDone: 0,
    resources: 0,
    filesCopied: 0,
    bytes: 0,
    attempt: 1,
    resourceCounts: {},
    apiBase,
    request: `${apiBase}/v1/practices/fhir-exports`,
    parts: {},
    nextBatch: 0,
    listingDone: false,
  };
  await createBulkExport(auth.practiceId, record);
  await writeAudit(auth, { action: 'create', entity: 'fhir_bulk_export_start', entityId: record.exportId });
  try {
    await run(auth, record);
  } catch (error) {
    await updateBulkExport(
      auth.practiceId,
      record.exportId,
      { status: 'failed', error: 'The export could not be started. Resume it to try again.' },
      { attempt: 1 },
    );
    throw error;
  }
  return publicView(record);
}

/** POST /v1/practices/fhir-exports/{exportId}/resume: a failed export carries on from the batch after the last one written. */
export async function resumeBulkExport(auth: AuthContext, exportId: string): Promise<FhirBulkExport> {
  const found = await getBulkExport(auth.practiceId, exportId);
  if (!found) throw new NotFoundError(FHIR_BULK_MESSAGES.notFound);
  const record = await settled(auth.practiceId, found);
  if (record.status !== 'failed') throw new ConflictError(FHIR_BULK_MESSAGES.notFailed);
  const attempt = record.attempt + 1;
  const claimed = await updateBulkExport(
    auth.practiceId,
    exportId,
    { status: 'running', error: undefined, attempt },
    { attempt: record.attempt, status: 'failed' },
  );
  if (!claimed) throw new ConflictError(FHIR_BULK_MESSAGES.notFailed);
  await writeAudit(auth, { action: 'update', entity: 'fhir_bulk_export_resume', entityId: exportId, count: record.patientsDone });
  const resumed = { ...record, status: 'running' as const, error: undefined, attempt };
  await run(auth, resumed);
  return publicView(resumed);
}

/** GET /v1/practices/fhir-exports: the practice's exports, newest first, with their progress. */
export async function listBulkExportViews(auth: AuthContext): Promise<{ exports: FhirBulkExport[] }> {
  const records = await listBulkExports(auth.practiceId);
  const exports = await Promise.all(records.map((r) => settled(auth.practiceId, r)));
  return { exports: exports.map(publicView) };
}

/** GET /v1/practices/fhir-exports/{exportId}: progress, and once complete the manifest with expiring links. */
export async function getBulkExportView(auth: AuthContext, exportId: string): Promise<FhirBulkExportView> {
  const found = await getBulkExport(auth.practiceId, exportId);
  if (!found) throw new NotFoundError(FHIR_BULK_MESSAGES.notFound);
  const record = await settled(auth.practiceId, found);
  if (record.status !== 'completed') return publicView(record);
  const { s3, bucket } = store();
  const folder = bulkFolder(exportId);
  const stored = JSON.parse(new TextDecoder().decode(await s3.getObject({ bucket, key: `${folder}manifest.json` }))) as BulkDataManifest;
  // Sizes from the record: a practice's export holds more files than one listing page.
  const listed = new Map<string, number>(
    Object.entries(record.parts ?? {}).flatMap(([type, written]) => written.map(([b, bytes]) => [partName(type, b), bytes] as [string, number])),
  );
  if (record.practitionerBytes !== undefined) listed.set('Practitioner.ndjson', record.practitionerBytes);
  for (const [type, bytes] of Object.entries(record.sharedBytes ?? {})) listed.set(`${type}.ndjson`, bytes);
  const files = await Promise.all(
    stored.output.map(async (o) => {
      const name = exportPathOf(exportId, o.url);
      return { type: o.type, name, url: await s3.presignGet({ bucket, key: `${folder}${name}` }, BULK_LINK_SECONDS), bytes: listed.get(name) ?? 0 };
    }),
  );
  await writeAudit(auth, { action: 'read', entity: 'fhir_bulk_export', entityId: exportId, count: record.patientsDone });
  // The attached files' list stays in the stored manifest (manifestUrl): a practice's thousands of links would outgrow a response.
  const { [BULK_FILES_EXTENSION]: attached, ...extension } = stored.extension ?? {};
  const { files: _listed, ...filesSummary } = (attached ?? {}) as { files?: unknown };
  return {
    ...publicView(record),
    // Presigned links carry their own authorisation.
    manifest: {
      ...stored,
      requiresAccessToken: false,
      output: files.map((f) => ({ type: f.type, url: f.url })),
      error: await Promise.all(
        (stored.error ?? []).map(async (e) => ({
          type: e.type,
          url: await s3.presignGet({ bucket, key: `${folder}${exportPathOf(exportId, e.url)}` }, BULK_LINK_SECONDS),
        })),
      ),
      extension: { ...extension, ...(attached ? { [BULK_FILES_EXTENSION]: { ...filesSummary, listedIn: 'manifest.json' } } : {}) },
    },
    manifestUrl: await s3.presignGet({ bucket, key: `${folder}manifest.json` }, BULK_LINK_SECONDS),
    files,
    linksExpireInSeconds: BULK_LINK_SECONDS,
  };
}

/** A manifest url's path inside the export's folder: the download route's {path+}, or (manifests written before it) the url itself. */
function exportPathOf(exportId: string, url: string): string {
  const marker = `/fhir-exports/${encodeURIComponent(exportId)}/files/`;
  const at = url.indexOf(marker);
  return at === -1
    ? url
    : url
        .slice(at + marker.length)
        .split('/')
        .map(decodeURIComponent)
        .join('/');
}

/**
 * What the download route may serve, relative to the export's folder: the manifest, an NDJSON file,
 * or an attached file under files/<patientId>/. Any other shape (`..`, `.`, empty segments, a
 * backslash) is outside the export. The patient's id, for a patient's file.
 */
function exportFile(path: string): { patientId?: string; batch?: number } | null {
  if (path.includes('\\') || path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  if (path === 'manifest.json') return {};
  const ndjson = /^[A-Za-z]+(?:\.(\d{4}))?\.ndjson$/.exec(path);
  if (ndjson) return ndjson[1] === undefined ? {} : { batch: Number(ndjson[1]) };
  const file = /^files\/([A-Za-z0-9_-]{1,64})\/[^/]+$/.exec(path);
  return file ? { patientId: file[1] } : null;
}

/** The patients a batch wrote, from its index: a download of one of its NDJSON files is in each one's access history. */
async function batchPatients(exportId: string, batch: number): Promise<string[]> {
  const { s3, bucket } = store();
  try {
    const index = JSON.parse(
      new TextDecoder().decode(await s3.getObject({ bucket, key: `${bulkFileIndexFolder(exportId)}${fileIndexName(batch)}` })),
    ) as BulkBatchIndex;
    return index.patientIds ?? [];
  } catch (error) {
    // An export written before batches kept an index: the download is audited on the export alone.
    if (error instanceof S3ObjectsError && (error.status === 404 || error.status === 403)) return [];
    throw error;
  }
}

/**
 * GET /v1/practices/fhir-exports/{exportId}/files/{path+}: the stored manifest's urls (and the
 * NDJSON's attachment urls) point here, so a Bulk Data client downloads with its bearer token. The
 * answer is a redirect to a 15-minute presigned link: clients follow it without sending the token on
 * (a redirect to another origin drops Authorization), and the bytes never pass through the Lambda,
 * whose response is limited to 6 MB. The body carries the same link for a client that does not follow.
 */
export async function bulkExportFile(auth: AuthContext, exportId: string, path: string): Promise<HttpResponse> {
  const record = await getBulkExport(auth.practiceId, exportId);
  if (!record) throw new NotFoundError(FHIR_BULK_MESSAGES.notFound);
  if (record.status !== 'completed') throw new ConflictError(FHIR_BULK_MESSAGES.notReady);
  const file = exportFile(path);
  if (!file) throw new NotFoundError(FHIR_BULK_MESSAGES.fileNotFound);
  const { s3, bucket } = store();
  const key = `${bulkFolder(exportId)}${path}`;
  try {
    await s3.headObject({ bucket, key });
  } catch (error) {
    // Without a listing right S3 answers 403 for a key that is not there.
    if (error instanceof S3ObjectsError && (error.status === 404 || error.status === 403)) throw new NotFoundError(FHIR_BULK_MESSAGES.fileNotFound);
    throw error;
  }
  const entry = { action: 'read', entity: 'fhir_bulk_export_file', entityId: `${exportId}/${path}` } as const;
  if (file.patientId) await writeAudit(auth, { ...entry, patientId: file.patientId });
  else await writeAuditForPatients(auth, entry, file.batch === undefined ? [] : await batchPatients(exportId, file.batch));
  const url = await s3.presignGet({ bucket, key }, BULK_LINK_SECONDS);
  return new HttpResponse(302, { url, expiresInSeconds: BULK_LINK_SECONDS }, { location: url, 'cache-control': 'no-store' });
}
