/**
 * Starting, following and resuming the whole-practice FHIR export (routes in the practice group,
 * which serves Settings). The work itself runs in the state machine; this module only writes the
 * export's record, starts executions and hands out expiring links.
 */
import { randomUUID } from 'node:crypto';
import { FHIR_BULK_MESSAGES, type BulkDataManifest, type FhirBulkExport, type FhirBulkExportView } from '../../../../shared/chart/fhir-bulk.js';
import type { WorkflowAdapter } from '../../../lib/adapters/workflow.js';
import { store } from '../files-store.js';
import { writeAudit } from '../../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError } from '../../../lib/errors.js';
import type { HttpEvent } from '../../../lib/http/group-handler.js';
import { createBulkExport, getBulkExport, listBulkExports, updateBulkExport, type FhirBulkRecord } from './bulk-repository.js';
import { bulkFolder, partName, type FhirBulkState } from './bulk-steps.js';

/** How long the manifest's and files' links work. */
export const BULK_LINK_SECONDS = 15 * 60;
const STOPPED_UNEXPECTEDLY = 'The export stopped unexpectedly (its run ended without finishing). Resume it to carry on.';

let workflow: WorkflowAdapter | undefined;
async function workflows(): Promise<WorkflowAdapter> {
  workflow ??= (await import('../../../lib/adapters/workflow.js')).workflowAdapterFromEnv();
  return workflow;
}

function stateMachineArn(): string {
  const arn = process.env.FHIR_EXPORT_STATE_MACHINE_ARN;
  if (!arn) throw new Error('FHIR_EXPORT_STATE_MACHINE_ARN is not set');
  return arn;
}

function publicView(record: FhirBulkRecord): FhirBulkExport {
  const { request: _r, executionArn: _e, nextBatch: _n, cursor: _c, listingDone: _l, parts: _p, practitionerBytes: _b, sharedBytes: _s, ...view } = record;
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

function kickOffUrl(event: HttpEvent | undefined): string {
  const host = event?.requestContext?.domainName ?? event?.headers?.host ?? 'localhost';
  const scheme = /^(localhost|127\.0\.0\.1)(:|$)/.test(host) ? 'http' : 'https';
  return `${scheme}://${host}/v1/practices/fhir-exports`;
}

/** POST /v1/practices/fhir-exports: one export at a time; the admin is told when it is ready. */
export async function startBulkExport(auth: AuthContext, event?: HttpEvent): Promise<FhirBulkExport> {
  const running = (await Promise.all((await listBulkExports(auth.practiceId)).map((r) => settled(auth.practiceId, r)))).find((r) => r.status === 'running');
  if (running) throw new ConflictError(FHIR_BULK_MESSAGES.alreadyRunning, { exportId: running.exportId });
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
    request: kickOffUrl(event),
    parts: {},
    nextBatch: 0,
    listingDone: false,
  };
  await createBulkExport(auth.practiceId, record);
  await writeAudit(auth, { action: 'create', entity: 'fhir_bulk_export_start', entityId: record.exportId });
  try {
    await run(auth, record);
  } catch (error) {
    await updateBulkExport(auth.practiceId, record.exportId, { status: 'failed', error: 'The export could not be started. Resume it to try again.' }, { attempt: 1 });
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
  const claimed = await updateBulkExport(auth.practiceId, exportId, { status: 'running', error: undefined, attempt }, { attempt: record.attempt, status: 'failed' });
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
  const listed = new Map<string, number>(Object.entries(record.parts ?? {}).flatMap(([type, written]) => written.map(([b, bytes]) => [partName(type, b), bytes] as [string, number])));
  if (record.practitionerBytes !== undefined) listed.set('Practitioner.ndjson', record.practitionerBytes);
  for (const [type, bytes] of Object.entries(record.sharedBytes ?? {})) listed.set(`${type}.ndjson`, bytes);
  const files = await Promise.all(
    stored.output.map(async (o) => ({ type: o.type, name: o.url, url: await s3.presignGet({ bucket, key: `${folder}${o.url}` }, BULK_LINK_SECONDS), bytes: listed.get(o.url) ?? 0 })),
  );
  await writeAudit(auth, { action: 'read', entity: 'fhir_bulk_export', entityId: exportId, count: record.patientsDone });
  return {
    ...publicView(record),
    // Presigned links carry their own authorisation.
    manifest: { ...stored, requiresAccessToken: false, output: files.map((f) => ({ type: f.type, url: f.url })) },
    manifestUrl: await s3.presignGet({ bucket, key: `${folder}manifest.json` }, BULK_LINK_SECONDS),
    files,
    linksExpireInSeconds: BULK_LINK_SECONDS,
  };
}
