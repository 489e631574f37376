/**
 * The steps of the whole-practice FHIR export, run by the chart group Lambda for the state machine
 * (infra/lib/fhir-export). `begin` counts the patients, each `batch` pages one batch of patients
 * through the table and writes one NDJSON file per resource type (plus the notes' files), and
 * `finish` writes the Bulk Data manifest and tells the admin. A failure is recorded with its reason.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { BulkDataManifest } from '../../../../shared/chart/fhir-bulk.js';
import { FHIR_BULK_MESSAGES } from '../../../../shared/chart/fhir-bulk.js';
import type { S3Objects } from '../../../lib/adapters/s3-objects.js';
import { store } from '../files-store.js';
import { writeAudit, writeAuditForPatients } from '../../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../../lib/auth/auth-context.js';
import { ConflictError } from '../../../lib/errors.js';
import { log } from '../../../lib/log.js';
import { documentClient } from '../../../lib/table/client.js';
import { INDEXES, tableName } from '../../../lib/table/definition.js';
import { storedKey } from '../../../files/presign.js';
import { createNotification } from '../../../notifications/notification-repository.js';
import { fromItem as patientFromItem, patientsByNamePartition } from '../../../patients/patient-repository.js';
import { listAllAppointments } from '../../../practice/calendar-repository.js';
import { listCalls } from '../../../practice/call-repository.js';
import { chartBundle } from '../bundle.js';
import { loadChartSource } from '../chart-source.js';
import type { FhirResource } from '../fhir-core.js';
import { getBulkExport, updateBulkExport, type FhirBulkRecord } from './bulk-repository.js';
import { bulkFolder, FHIR_BULK_BATCH_SIZE, partName, FHIR_BULK_STEPS, type FhirBulkState, type FhirBulkWorkerEvent } from './bulk-steps.js';

class BulkStepError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}


const encoder = new TextEncoder();
const MANIFEST = 'manifest.json';

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

async function countPatients(practiceId: string): Promise<number> {
  let count = 0;
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const out: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEXES.gsi1.indexName,
        KeyConditionExpression: 'gsi1pk = :pk',
        // The table is the practice's own; the filter only makes sure of it.
        FilterExpression: 'practiceId = :practice',
        ExpressionAttributeValues: { ':pk': patientsByNamePartition('active'), ':practice': practiceId },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** First step of every run: a fresh export counts its patients; a resumed one carries on from its record. */
async function begin(state: FhirBulkState): Promise<FhirBulkState> {
  const record = await current(state);
  if (record.nextBatch === 0 && record.patientsTotal === 0) {
    const patientsTotal = await countPatients(state.practiceId);
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
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: 'practiceId = :practice',
      ExpressionAttributeValues: { ':pk': patientsByNamePartition('active'), ':practice': state.practiceId },
      Limit: Number(process.env.FHIR_BULK_BATCH_SIZE) || FHIR_BULK_BATCH_SIZE,
      ...(record.cursor ? { ExclusiveStartKey: record.cursor } : {}),
    }),
  );
  const patients = (out.Items ?? []).map(patientFromItem);
  const { s3, bucket } = store();
  const folder = bulkFolder(state.exportId);
  const byType = new Map<string, Map<string, FhirResource>>();
  let filesCopied = 0;
  // Appointment series are not keyed by patient: one read of them for the batch, not one per patient.
  const appointments = patients.length ? await listAllAppointments(state.practiceId) : [];
  const calls = patients.length ? await listCalls(state.practiceId) : [];
  for (const patient of patients) {
    const source = await loadChartSource(state.practiceId, patient.id, { appointments, calls });
    // Attachment urls are relative to the export's folder: files/<patientId>/<position>-<name>.
    const filePaths = new Map([...source.filePaths].map(([key, path]) => [key, `files/${patient.id}/${path.slice('files/'.length)}`]));
    const bundle = chartBundle({ ...source, filePaths }, new Date(record.startedAt));
    for (const { resource } of bundle.entry) {
      const ofType = byType.get(resource.resourceType) ?? new Map<string, FhirResource>();
      ofType.set(String(resource.id), resource);
      byType.set(resource.resourceType, ofType);
    }
    for (const [key, path] of filePaths) {
      try {
        await s3.putObject({ bucket, key: `${folder}${path}` }, await s3.getObject({ bucket, key: storedKey(key) }), { contentType: 'application/octet-stream' });
        filesCopied++;
      } catch (error) {
        // A file gone from storage leaves its DocumentReference pointing nowhere, as in the chart export.
        log.warn('Bulk export file missing', { exportId: state.exportId, error: (error as Error)?.name });
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
    if (type !== 'Practitioner') {
      resources += items.size;
      counts[type] = (counts[type] ?? 0) + items.size;
    }
  }
  await writeAuditForPatients(actorOf(record, state.practiceId), { action: 'read', entity: 'fhir_bulk_export', entityId: state.exportId }, patients.map((p) => p.id));
  const after = { nextBatch: batchNo + 1, listingDone: !out.LastEvaluatedKey };
  const written = await updateBulkExport(
    state.practiceId,
    state.exportId,
    { ...after, cursor: out.LastEvaluatedKey, resourceCounts: counts, parts },
    { attempt: state.attempt, nextBatch: batchNo },
    { patientsDone: patients.length, batchesDone: 1, resources, filesCopied, bytes },
  );
  if (!written) throw new BulkStepError('FhirBulkRunSuperseded', 'A newer run of this export took over.');
  return next(state, after);
}

/** Practitioners recur across batches: one file of each, once. A retry after the parts were removed finds the merged file. */
async function mergePractitioners(s3: S3Objects, bucket: string, folder: string, batches: number[]): Promise<{ bytes: number; count: number } | null> {
  if (batches.length === 0) return null;
  const byId = new Map<string, string>();
  let read = 0;
  for (const batch of batches) {
    let text: string;
    try {
      text = new TextDecoder().decode(await s3.getObject({ bucket, key: `${folder}${partName('Practitioner', batch)}` }));
      read++;
    } catch {
      continue;
    }
    for (const line of text.split('\n')) if (line) byId.set(String((JSON.parse(line) as { id: string }).id), line);
  }
  if (read === 0) {
    const merged = await s3.getObject({ bucket, key: `${folder}Practitioner.ndjson` });
    return { bytes: merged.length, count: new TextDecoder().decode(merged).split('\n').filter(Boolean).length };
  }
  const body = encoder.encode(`${[...byId.values()].join('\n')}\n`);
  await s3.putObject({ bucket, key: `${folder}Practitioner.ndjson` }, body, { contentType: 'application/fhir+ndjson' });
  for (const batch of batches) await s3.deleteObject({ bucket, key: `${folder}${partName('Practitioner', batch)}` });
  return { bytes: body.length, count: byId.size };
}

/** The manifest lists every NDJSON file written, by the url relative to it; then the admin is told. */
async function finish(state: FhirBulkState): Promise<FhirBulkState> {
  const record = await current(state);
  const { s3, bucket } = store();
  const folder = bulkFolder(state.exportId);
  const parts = record.parts ?? {};
  const practitioners = await mergePractitioners(s3, bucket, folder, (parts.Practitioner ?? []).map(([b]) => b));
  const practitionerBytes = practitioners?.bytes ?? null;
  // Batches count only their patients' resources; the practitioners are counted once merged.
  const resourceCounts = practitioners ? { ...record.resourceCounts, Practitioner: practitioners.count } : record.resourceCounts;
  const names = [
    ...Object.entries(parts).filter(([type]) => type !== 'Practitioner').flatMap(([type, written]) => written.map(([b]) => partName(type, b))),
    ...(practitionerBytes !== null ? ['Practitioner.ndjson'] : []),
  ].sort();
  const finishedAt = new Date().toISOString();
  const manifest: BulkDataManifest = {
    transactionTime: record.startedAt,
    request: record.request,
    // The stored urls are relative to manifest.json; the API hands them out as expiring links.
    requiresAccessToken: true,
    output: names.map((name) => ({ type: name.split('.')[0]!, url: name })),
    error: [],
    extension: { 'https://tidewell.health/fhir/bulk/files': { folder: 'files/', count: record.filesCopied }, 'https://tidewell.health/fhir/bulk/resourceCounts': resourceCounts },
  };
  await s3.putObject({ bucket, key: `${folder}${MANIFEST}` }, encoder.encode(JSON.stringify(manifest, null, 1)), { contentType: 'application/json' });
  const done = await updateBulkExport(state.practiceId, state.exportId, { status: 'completed', finishedAt, error: undefined, practitionerBytes: practitionerBytes ?? undefined, resourceCounts }, { attempt: state.attempt });
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
  await updateBulkExport(state.practiceId, state.exportId, { status: 'failed', error: failureReason(state.error).slice(0, 500) }, { attempt: state.attempt, status: 'running' });
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
