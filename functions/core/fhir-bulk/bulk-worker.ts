/**
 * The steps of the whole-practice FHIR export, run by the chart group Lambda for the state machine
 * (infra/lib/fhir-export). `begin` counts the patients, each `batch` pages one batch of patients
 * through the table and writes one NDJSON file per resource type (plus the notes' files), and
 * `finish` writes the Bulk Data manifest and tells the admin. A failure is recorded with its reason.
 */
import type { BulkDataManifest } from '../../../shared/chart/fhir-bulk.js';
import { FHIR_BULK_MESSAGES } from '../../../shared/chart/fhir-bulk.js';
import { S3ObjectsError, type S3Objects } from '../../lib/adapters/s3-objects.js';
import { store } from './files-store.js';
import { writeAudit, writeAuditForPatients } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError } from '../../lib/errors.js';
import { log } from '../../lib/log.js';
import { storedKey } from '../../lib/files/presign.js';
import { createNotification } from '../../data/notifications/notification-repository.js';
import { activePatientsPage, countActivePatients } from '../../data/fhir-bulk/patient-pages.js';
import { chartBundle } from '../fhir/bundle.js';
import { loadChartSource, loadPracticeDirectory } from '../fhir/chart-source.js';
import { withRelativeReferences, type FhirResource } from '../fhir/fhir-core.js';
import { getBulkExport, updateBulkExport, type FhirBulkRecord } from '../../data/fhir-bulk/bulk-export-repository.js';
import {
  apiBaseOf,
  BULK_FILES_EXTENSION,
  bulkFileIndexFolder,
  bulkFileUrl,
  fileIndexName,
  missingFileOutcome,
  type BulkBatchIndex,
  type BulkFileEntry,
  type BulkMissingFile,
} from './bulk-files.js';
import { bulkFolder, FHIR_BULK_BATCH_SIZE, partName, FHIR_BULK_STEPS, type FhirBulkState, type FhirBulkWorkerEvent } from './bulk-steps.js';

class BulkStepError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const encoder = new TextEncoder();
const MANIFEST = 'manifest.json';
/** The manifest's `error` file: an OperationOutcome for each attached file storage no longer held. */
const ERRORS = 'OperationOutcome.ndjson';

/** The admin who started the export: audit entries and the notification name them. */
function actorOf(record: FhirBulkRecord, practiceId: string): AuthContext {
  const by = record.startedBy;
  return { practiceId, userId: by.userId, email: by.email, name: by.name, role: by.role, groups: [], ...(by.superUser ? { superUser: true } : {}) };
}

async function current(state: FhirBulkState): Promise<FhirBulkRecord> {
  const record = state.practiceId && state.exportId ? await getBulkExport(state.practiceId, state.exportId) : null;
  if (!record) throw new BulkStepError('FhirBulkExportNotFound', FHIR_BULK_MESSAGES.notFound);
  // A resume started a newer execution: the older one stops before it writes anything.
  if (record.attempt !== state.attempt) throw new BulkStepError('FhirBulkRunSuperseded', 'A newer run of this export took over.');
  return record;
}

/** The listing's cursor holds a patient's name (the directory's sort key): it stays in the record, never in the execution's state. */
const next = (state: FhirBulkState, record: Pick<FhirBulkRecord, 'nextBatch' | 'listingDone'>): FhirBulkState => ({
  practiceId: state.practiceId,
  exportId: state.exportId,
  attempt: state.attempt,
  batch: record.nextBatch,
  done: record.listingDone,
});

/** First step of every run: a fresh export counts its patients; a resumed one carries on from its record. */
async function begin(state: FhirBulkState): Promise<FhirBulkState> {
  const record = await current(state);
  if (record.nextBatch === 0 && record.patientsTotal === 0) {
    const patientsTotal = await countActivePatients(state.practiceId);
    await updateBulkExport(state.practiceId, state.exportId, { patientsTotal }, { attempt: state.attempt });
  }
  return next(state, record);
}

/** One page of patients: their charts as NDJSON, one file per resource type, and their notes' files. */
async function batch(state: FhirBulkState): Promise<FhirBulkState> {
  const record = await current(state);
  const batchNo = state.batch ?? 0;
  // This batch was already written (the step's answer was lost and the machine retried): carry on.
  if (record.nextBatch !== batchNo) return next(state, record);
  const page = await activePatientsPage(state.practiceId, Number(process.env.FHIR_BULK_BATCH_SIZE) || FHIR_BULK_BATCH_SIZE, record.cursor);
  const patients = page.patients;
  const { s3, bucket } = store();
  const folder = bulkFolder(state.exportId);
  const byType = new Map<string, Map<string, FhirResource>>();
  let filesCopied = 0;
  // Users, appointment types and locations are the practice's: read once for the batch. Each
  // patient's appointments and calls are read from that patient's keys, so a batch costs its patients.
  const directory = patients.length ? await loadPracticeDirectory(state.practiceId) : undefined;
  const apiBase = apiBaseOf(record);
  const fileEntries: BulkFileEntry[] = [];
  const missing: BulkMissingFile[] = [];
  for (const patient of patients) {
    const source = await loadChartSource(state.practiceId, patient.id, { directory });
    // Each file lands at files/<patientId>/<position>-<name> in the export's folder; its attachment
    // url is the download route of that path, as the manifest's are.
    const filePaths = new Map([...source.filePaths].map(([key, path]) => [key, `files/${patient.id}/${path.slice('files/'.length)}`]));
    const fileUrls = new Map([...filePaths].map(([key, path]) => [key, bulkFileUrl(apiBase, state.exportId, path)]));
    const bundle = chartBundle({ ...source, filePaths: fileUrls }, new Date(record.startedAt));
    let patientRef = '';
    for (const resource of withRelativeReferences(bundle.entry)) {
      if (resource.resourceType === 'Patient') patientRef = `Patient/${String(resource.id)}`;
      const ofType = byType.get(resource.resourceType) ?? new Map<string, FhirResource>();
      ofType.set(String(resource.id), resource);
      byType.set(resource.resourceType, ofType);
    }
    const fileInfo = new Map(source.notes.flatMap((n) => n.files).map((f) => [f.key, f]));
    for (const [key, path] of filePaths) {
      try {
        const bytes = await s3.getObject({ bucket, key: storedKey(key) });
        const contentType = fileInfo.get(key)?.contentType || 'application/octet-stream';
        await s3.putObject({ bucket, key: `${folder}${path}` }, bytes, { contentType });
        fileEntries.push({ url: fileUrls.get(key)!, contentType, size: bytes.length, patient: { reference: patientRef } });
        filesCopied++;
      } catch (error) {
        // A file gone from storage leaves its DocumentReference pointing nowhere, as in the chart
        // export: the manifest's error file names it, so a reader knows the url has nothing behind it.
        log.warn('Bulk export file missing', { exportId: state.exportId, error: (error as Error)?.name });
        missing.push({ url: fileUrls.get(key)!, name: fileInfo.get(key)?.name ?? path.split('/').pop()!, patient: { reference: patientRef } });
      }
    }
  }
  let bytes = 0;
  let resources = 0;
  const counts: Record<string, number> = { ...record.resourceCounts };
  const parts: Record<string, [number, number][]> = { ...(record.parts ?? {}) };
  for (const [type, items] of byType) {
    const body = encoder.encode(`${[...items.values()].map((r) => JSON.stringify(r)).join('\n')}\n`);
    await s3.putObject({ bucket, key: `${folder}${partName(type, batchNo)}` }, body, { contentType: 'application/fhir+ndjson' });
    parts[type] = [...(parts[type] ?? []).filter(([b]) => b !== batchNo), [batchNo, body.length]];
    bytes += body.length;
    if (!SHARED_TYPES.includes(type)) {
      resources += items.size;
      counts[type] = (counts[type] ?? 0) + items.size;
    }
  }
  // Rewritten whole when the batch is, so a retried batch lists its files and patients once.
  const indexKey = `${bulkFileIndexFolder(state.exportId)}${fileIndexName(batchNo)}`;
  const index: BulkBatchIndex = { patientIds: patients.map((p) => p.id), files: fileEntries, missing };
  await s3.putObject({ bucket, key: indexKey }, encoder.encode(JSON.stringify(index)), { contentType: 'application/json' });
  await writeAuditForPatients(
    actorOf(record, state.practiceId),
    { action: 'read', entity: 'fhir_bulk_export', entityId: state.exportId },
    patients.map((p) => p.id),
  );
  const after = { nextBatch: batchNo + 1, listingDone: !page.cursor };
  const written = await updateBulkExport(
    state.practiceId,
    state.exportId,
    { ...after, cursor: page.cursor, resourceCounts: counts, parts },
    { attempt: state.attempt, nextBatch: batchNo },
    { patientsDone: patients.length, batchesDone: 1, resources, filesCopied, filesMissing: missing.length, bytes },
  );
  if (!written) throw new BulkStepError('FhirBulkRunSuperseded', 'A newer run of this export took over.');
  return next(state, after);
}

/** Practitioners and locations are the practice's, named by many patients: one file of each type, merged once the batches are written. */
const SHARED_TYPES: readonly string[] = ['Practitioner', 'Location'];

/** One file of a shared type, each resource once. A retry after the parts were removed finds the merged file. */
async function mergeShared(s3: S3Objects, bucket: string, folder: string, type: string, batches: number[]): Promise<{ bytes: number; count: number } | null> {
  if (batches.length === 0) return null;
  const byId = new Map<string, string>();
  let read = 0;
  for (const batch of batches) {
    let text: string;
    try {
      text = new TextDecoder().decode(await s3.getObject({ bucket, key: `${folder}${partName(type, batch)}` }));
      read++;
    } catch {
      continue;
    }
    for (const line of text.split('\n')) if (line) byId.set(String((JSON.parse(line) as { id: string }).id), line);
  }
  if (read === 0) {
    const merged = await s3.getObject({ bucket, key: `${folder}${type}.ndjson` });
    return { bytes: merged.length, count: new TextDecoder().decode(merged).split('\n').filter(Boolean).length };
  }
  const body = encoder.encode(`${[...byId.values()].join('\n')}\n`);
  await s3.putObject({ bucket, key: `${folder}${type}.ndjson` }, body, { contentType: 'application/fhir+ndjson' });
  for (const batch of batches) await s3.deleteObject({ bucket, key: `${folder}${partName(type, batch)}` });
  return { bytes: body.length, count: byId.size };
}

async function batchIndex(s3: S3Objects, bucket: string, key: string): Promise<Pick<BulkBatchIndex, 'files' | 'missing'>> {
  try {
    return JSON.parse(new TextDecoder().decode(await s3.getObject({ bucket, key }))) as BulkBatchIndex;
  } catch (error) {
    // A batch written before batches kept an index (an export resumed across the change) lists none.
    if (error instanceof S3ObjectsError && (error.status === 404 || error.status === 403)) return { files: [] };
    throw error;
  }
}

/** The files every batch of the export copied, in batch order, from the batches' indexes. */
async function listedFiles(s3: S3Objects, bucket: string, exportId: string, batches: number): Promise<{ files: BulkFileEntry[]; missing: BulkMissingFile[] }> {
  const folder = bulkFileIndexFolder(exportId);
  const names = Array.from({ length: batches }, (_, b) => fileIndexName(b));
  const indexes: Pick<BulkBatchIndex, 'files' | 'missing'>[] = [];
  // A few at a time: a 5,000-patient export has about a hundred batches.
  for (let i = 0; i < names.length; i += 10) {
    indexes.push(...(await Promise.all(names.slice(i, i + 10).map((name) => batchIndex(s3, bucket, `${folder}${name}`)))));
  }
  return { files: indexes.flatMap((x) => x.files), missing: indexes.flatMap((x) => x.missing ?? []) };
}

/** The manifest lists every NDJSON file and every attached file written, by their download urls; then the admin is told. */
async function finish(state: FhirBulkState): Promise<FhirBulkState> {
  const record = await current(state);
  const { s3, bucket } = store();
  const folder = bulkFolder(state.exportId);
  const parts = record.parts ?? {};
  const sharedBytes: Record<string, number> = {};
  // Batches count only their patients' resources; practitioners and locations are counted once merged.
  let resourceCounts = record.resourceCounts;
  for (const type of SHARED_TYPES) {
    const merged = await mergeShared(
      s3,
      bucket,
      folder,
      type,
      (parts[type] ?? []).map(([b]) => b),
    );
    if (!merged) continue;
    sharedBytes[type] = merged.bytes;
    resourceCounts = { ...resourceCounts, [type]: merged.count };
  }
  const names = [
    ...Object.entries(parts)
      .filter(([type]) => !SHARED_TYPES.includes(type))
      .flatMap(([type, written]) => written.map(([b]) => partName(type, b))),
    ...Object.keys(sharedBytes).map((type) => `${type}.ndjson`),
  ].sort();
  const { files, missing } = await listedFiles(s3, bucket, state.exportId, record.nextBatch);
  const apiBase = apiBaseOf(record);
  if (missing.length) {
    const outcomes = encoder.encode(`${missing.map((m) => JSON.stringify(missingFileOutcome(m))).join('\n')}\n`);
    await s3.putObject({ bucket, key: `${folder}${ERRORS}` }, outcomes, { contentType: 'application/fhir+ndjson' });
  }
  const finishedAt = new Date().toISOString();
  const manifest: BulkDataManifest = {
    transactionTime: record.startedAt,
    request: record.request,
    // Absolute urls of the download route, which asks for the admin's token (the API's copy has expiring links instead).
    requiresAccessToken: true,
    output: names.map((name) => ({ type: name.split('.')[0]!, url: bulkFileUrl(apiBase, state.exportId, name) })),
    error: missing.length ? [{ type: 'OperationOutcome', url: bulkFileUrl(apiBase, state.exportId, ERRORS) }] : [],
    extension: { [BULK_FILES_EXTENSION]: { count: files.length, files }, 'https://tidewell.health/fhir/bulk/resourceCounts': resourceCounts },
  };
  await s3.putObject({ bucket, key: `${folder}${MANIFEST}` }, encoder.encode(JSON.stringify(manifest, null, 1)), { contentType: 'application/json' });
  const done = await updateBulkExport(
    state.practiceId,
    state.exportId,
    { status: 'completed', finishedAt, error: undefined, sharedBytes, resourceCounts },
    { attempt: state.attempt },
  );
  if (!done) throw new BulkStepError('FhirBulkRunSuperseded', 'A newer run of this export took over.');
  const actor = actorOf(record, state.practiceId);
  await writeAudit(actor, { action: 'create', entity: 'fhir_bulk_export', entityId: state.exportId, count: record.patientsDone });
  // Once per export, whatever retries the step has: the id is the export's.
  await createNotification(
    state.practiceId,
    {
      notificationId: `fhir-bulk-${state.exportId}`,
      notificationType: 'TASK',
      notificationStatus: 'UNREAD',
      sourceId: state.exportId,
      assigned: record.startedBy.userId,
      text: FHIR_BULK_MESSAGES.ready,
      data: { exportId: state.exportId, patients: record.patientsDone, resources: record.resources },
    },
    actor,
  ).catch((error: unknown) => {
    if (!(error instanceof ConflictError)) throw error;
  });
  return { ...next(state, record), done: true };
}

/** The reason the admin reads: the failed step's message, not the Lambda runtime's wrapping. */
export function failureReason(error: FhirBulkState['error']): string {
  const cause = error?.Cause ?? '';
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: string };
    if (parsed.errorMessage) return parsed.errorMessage;
  } catch {
    // Not the Lambda runtime's JSON: the cause as it came.
  }
  return cause || error?.Error || 'The export stopped unexpectedly.';
}

async function recordFailure(state: FhirBulkState): Promise<FhirBulkState> {
  await updateBulkExport(
    state.practiceId,
    state.exportId,
    { status: 'failed', error: failureReason(state.error).slice(0, 500) },
    { attempt: state.attempt, status: 'running' },
  );
  return state;
}

export async function runBulkStep(event: FhirBulkWorkerEvent): Promise<FhirBulkState> {
  switch (event.fhirBulkStep) {
    case FHIR_BULK_STEPS.begin:
      return begin(event.state);
    case FHIR_BULK_STEPS.batch:
      return batch(event.state);
    case FHIR_BULK_STEPS.finish:
      return finish(event.state);
    case FHIR_BULK_STEPS.recordFailure:
      return recordFailure(event.state);
    default:
      throw new BulkStepError('UnknownFhirBulkStep', `Unknown export step: ${String(event.fhirBulkStep)}`);
  }
}
