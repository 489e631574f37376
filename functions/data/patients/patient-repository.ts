import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PatientInput } from '../../../shared/patients/patient-schema.js';
import { Patient, type PatientDemographics } from '../../../shared/patients/patient-record.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { batchGetAll, batchWriteAll } from '../../lib/table/batch.js';
import { INDEXES, tableName, TTL_ATTRIBUTE } from '../../lib/table/definition.js';
import { queryIndexPartition } from '../../lib/table/query-all.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem, type Item } from '../../lib/table/item.js';

/*
 * Patient items and their access patterns (docs/access-patterns.md):
 *   item            pk practiceId, sk PATIENT#<id>
 *   by name         gsi1 gsi1pk PATIENTS#ACTIVE | PATIENTS#DELETED, gsi1sk <lastname>#<firstname>#<id> (lower case)
 *   index version   pk practiceId, sk PATIENTS#INDEX_VERSION { version, changedAt } bumped by every patient write
 *   change          pk practiceId, sk PATIENTS#CHANGE#<version, 12 digits> { patientId | bulk, at, expiresAt }
 *                   written in the same transaction as the bump: what that version changed
 */
export type PatientStatus = Patient['status'];

export const patientKey = (id: string) => `PATIENT#${id}`;
export const patientsByNamePartition = (status: PatientStatus) => (status === 'DELETED' ? 'PATIENTS#DELETED' : 'PATIENTS#ACTIVE');
export const patientNameSortKey = (p: Pick<Patient, 'id' | 'firstName' | 'lastName'>) =>
  `${p.lastName.trim().toLowerCase()}#${p.firstName.trim().toLowerCase()}#${p.id}`;
export const PATIENT_INDEX_VERSION_KEY = 'PATIENTS#INDEX_VERSION';
export const patientChangeKey = (version: number) => `PATIENTS#CHANGE#${String(version).padStart(12, '0')}`;
/**
 * How long a change item is kept: far longer than a cached index goes unread in a warm Lambda, so
 * a catch-up finds every change it needs; an older cache is reloaded in full anyway.
 */
export const PATIENT_CHANGE_TTL_SECONDS = 86_400;
/** Attempts of a patient write whose version bump lost the race to another patient write. */
const VERSION_ATTEMPTS = 10;

export const PATIENT_NOT_FOUND = 'Patient not found';
export const PATIENT_ID_TAKEN = 'A patient with this id already exists';

export function toItem(practiceId: string, p: Patient): Item {
  return {
    ...p,
    practiceId,
    sk: patientKey(p.id),
    entityType: 'PATIENT',
    gsi1pk: patientsByNamePartition(p.status),
    gsi1sk: patientNameSortKey(p),
  };
}

export const fromItem = (item: Item): Patient => parseItem('patient', Patient, item);

/** The editable part of an input: the id comes from the key, never from a body. */
function editableFields(input: PatientInput) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { id, ...fields } = input;
  return fields;
}

/**
 * The bump from the version the writer read to the next one, and the change item recording what
 * that version changed. The bump is conditioned on the version read, so two writers cannot both
 * claim one version: each version has exactly one change item, committed with it.
 */
function versionedChange(practiceId: string, seen: number, change: { patientId: string } | { bulk: true }, at: number) {
  const next = seen + 1;
  return [
    {
      Update: {
        TableName: tableName(),
        Key: { practiceId, sk: PATIENT_INDEX_VERSION_KEY },
        UpdateExpression: 'SET #v = :next, changedAt = :now, entityType = :type',
        ConditionExpression: seen === 0 ? 'attribute_not_exists(#v) OR #v = :seen' : '#v = :seen',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':next': next, ':seen': seen, ':now': at, ':type': 'PATIENT_INDEX_VERSION' },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          practiceId,
          sk: patientChangeKey(next),
          entityType: 'PATIENT_CHANGE',
          version: next,
          ...change,
          at,
          // From the clock, not `at`: a write dated in the past (an import) must not expire at once.
          [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + PATIENT_CHANGE_TTL_SECONDS,
        },
      },
    },
  ];
}

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * One transaction of `items` (the patient's own write first) with the next version and its change
 * item. When another patient write took that version in between, the version is read again and
 * the transaction retried; a failed condition of the patient's own write is thrown to the caller.
 */
async function transactWithVersion(practiceId: string, items: TransactItem[], change: { patientId: string } | { bulk: true }, at: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { version } = await readPatientIndexVersion(practiceId);
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: [...items, ...versionedChange(practiceId, version, change, at)] }));
      return;
    } catch (error) {
      if (!lostVersionRace(error, items.length) || attempt >= VERSION_ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
    }
  }
}

/** Cancelled only because of the version bump or its change item (a concurrent patient write), not the patient's own condition. */
function lostVersionRace(error: unknown, ownItems: number): boolean {
  const e = error as { name?: string; CancellationReasons?: ({ Code?: string } | null)[] } | null;
  if (e?.name !== 'TransactionCanceledException') return false;
  const reasons = e.CancellationReasons ?? [];
  const own = reasons.slice(0, ownItems);
  const versioned = reasons.slice(ownItems);
  return (
    own.every((r) => !r || r.Code === 'None' || r.Code === 'TransactionConflict') &&
    versioned.some((r) => r?.Code === 'ConditionalCheckFailed' || r?.Code === 'TransactionConflict')
  );
}

/** Writes the patient item with the next index version and its change item in one transaction. */
async function writeWithVersion(practiceId: string, item: Item, condition: string, now: number, extra: Record<string, unknown> = {}) {
  await transactWithVersion(
    practiceId,
    [{ Put: { TableName: tableName(), Item: item, ConditionExpression: condition, ...extra } }],
    { patientId: String(item.id) },
    now,
  );
}

export async function getPatient(practiceId: string, id: string): Promise<Patient | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: patientKey(id) }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

/**
 * Creates a patient. The id is the client's (seed, import) or generated. Timeline:
 * two creates with one id race → both pass validation → the second Put fails
 * attribute_not_exists(sk) inside its transaction → 409, and the version is bumped once.
 */
export async function createPatient(practiceId: string, id: string, input: PatientInput, at = new Date()): Promise<Patient> {
  const now = at.toISOString();
  const patient: Patient = {
    ...editableFields(input),
    id,
    membershipStatus: 'active',
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
  try {
    await writeWithVersion(practiceId, toItem(practiceId, patient), 'attribute_not_exists(sk)', at.getTime());
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(PATIENT_ID_TAKEN);
    throw error;
  }
  return patient;
}

/**
 * Replaces the editable fields (a practitioner the body leaves out is kept); status, membership
 * and createdAt are kept. The Put is conditioned on the updatedAt it read, so an update that raced
 * another one gets 409 instead of silently undoing it; a patient that does not exist gets 404.
 */
export async function updatePatient(practiceId: string, id: string, input: PatientInput, at = new Date()): Promise<Patient> {
  const current = await getPatient(practiceId, id);
  if (!current) throw new NotFoundError(PATIENT_NOT_FOUND);
  const patient: Patient = {
    // A client that does not send practitioner (the patient form has no such field) keeps it.
    ...(input.practitioner === undefined && current.practitioner ? { practitioner: current.practitioner } : {}),
    ...editableFields(input),
    // What an import brought (race, ethnicity, birth sex, outside identifiers) is not on the form: an edit keeps it.
    ...(current.demographics ? { demographics: current.demographics } : {}),
    id,
    membershipStatus: current.membershipStatus,
    status: current.status,
    createdAt: current.createdAt,
    updatedAt: at.toISOString(),
  };
  try {
    await writeWithVersion(practiceId, toItem(practiceId, patient), 'attribute_exists(sk) AND updatedAt = :seen', at.getTime(), {
      ExpressionAttributeValues: { ':seen': current.updatedAt },
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const still = await getPatient(practiceId, id);
    if (!still) throw new NotFoundError(PATIENT_NOT_FOUND);
    throw new ConflictError('The patient was changed by someone else. Reload and try again.');
  }
  return patient;
}

/** Records what an imported record said of the patient (race, ethnicity, birth sex, identifiers). */
export function setPatientDemographics(practiceId: string, id: string, demographics: PatientDemographics, at = new Date()): Promise<Patient> {
  return updateExistingPatient(practiceId, id, at, {
    UpdateExpression: 'SET demographics = :d, updatedAt = :now',
    ExpressionAttributeValues: { ':d': demographics, ':now': at.toISOString() },
  });
}

/** The patient accepted the HIPAA authorization (the ePHI waiver): hipaaAuthorizationAccepted becomes true. */
export function acceptHipaaAuthorization(practiceId: string, id: string, at = new Date()): Promise<Patient> {
  return updateExistingPatient(practiceId, id, at, {
    UpdateExpression: 'SET hipaaAuthorizationAccepted = :yes, updatedAt = :now',
    ExpressionAttributeValues: { ':yes': true, ':now': at.toISOString() },
  });
}

/** Archive: membership archived, status DELETED, and the patient moves to the DELETED listing. */
export function archivePatient(practiceId: string, id: string, at = new Date()): Promise<Patient> {
  return updateExistingPatient(practiceId, id, at, {
    UpdateExpression: 'SET membershipStatus = :archived, #status = :deleted, gsi1pk = :pk, updatedAt = :now',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':archived': 'archived',
      ':deleted': 'DELETED',
      ':pk': patientsByNamePartition('DELETED'),
      ':now': at.toISOString(),
    },
  });
}

/** One update of an existing patient with the index version bump, in one transaction; the patient as stored after it. */
async function updateExistingPatient(
  practiceId: string,
  id: string,
  at: Date,
  update: { UpdateExpression: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> },
): Promise<Patient> {
  try {
    await transactWithVersion(
      practiceId,
      [{ Update: { TableName: tableName(), Key: { practiceId, sk: patientKey(id) }, ConditionExpression: 'attribute_exists(sk)', ...update } }],
      { patientId: id },
      at.getTime(),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(PATIENT_NOT_FOUND);
    throw error;
  }
  const patient = await getPatient(practiceId, id);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  return patient;
}

export async function getPatientsByIds(practiceId: string, ids: readonly string[]): Promise<Patient[]> {
  const items = await batchGetAll(ids.map((id) => ({ practiceId, sk: patientKey(id) })));
  const found = new Map(items.map((item) => fromItem(item)).map((p) => [p.id, p]));
  return ids.map((id) => found.get(id)).filter((p): p is Patient => !!p);
}

export interface PatientIndexVersion {
  version: number;
  changedAt: number;
}

/** One strongly consistent GetItem: tells a cached index whether any patient changed. */
export async function readPatientIndexVersion(practiceId: string): Promise<PatientIndexVersion> {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: { practiceId, sk: PATIENT_INDEX_VERSION_KEY },
      ConsistentRead: true,
      ProjectionExpression: '#v, changedAt',
      ExpressionAttributeNames: { '#v': 'version' },
    }),
  );
  return { version: Number(out.Item?.version ?? 0), changedAt: Number(out.Item?.changedAt ?? 0) };
}

/**
 * Every patient of one status in name order (Query on gsi1). Whole items: a projection would
 * not lower the read capacity consumed, and the cached items can then serve list pages.
 */
export async function queryPatientsByName(practiceId: string, status: PatientStatus): Promise<Patient[]> {
  return (await queryIndexPartition(INDEXES.gsi1, patientsByNamePartition(status))).map(fromItem);
}

/**
 * Bulk load for seeding and import: BatchWrite in chunks of 25, then one version bump. Existing
 * ids are overwritten, so only call it with ids the caller owns (the demo seed, a benchmark).
 */
export async function putPatientsBatch(practiceId: string, patients: readonly Patient[]): Promise<void> {
  await batchWriteAll(patients.map((p) => ({ PutRequest: { Item: toItem(practiceId, p) } })));
  // One version for the whole load, marked bulk: a cached index reloads in full instead of catching up.
  await transactWithVersion(practiceId, [], { bulk: true }, Date.now());
}

export type PatientChange = { version: number; at: number } & ({ patientId: string; bulk?: undefined } | { bulk: true; patientId?: undefined });

/**
 * The changes after version `after` up to `upTo`, oldest first: one strongly consistent Query of
 * at most `max` small items. Fewer than asked for means some expired (or the range is too long):
 * the caller reloads in full.
 */
export async function readPatientChanges(practiceId: string, after: number, upTo: number, max: number): Promise<PatientChange[]> {
  if (upTo <= after) return [];
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'practiceId = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': practiceId, ':from': patientChangeKey(after + 1), ':to': patientChangeKey(upTo) },
      ConsistentRead: true,
      Limit: max,
    }),
  );
  return (out.Items ?? []).map((i) =>
    i.bulk
      ? { version: Number(i.version), at: Number(i.at), bulk: true as const }
      : { version: Number(i.version), at: Number(i.at), patientId: String(i.patientId) },
  );
}
