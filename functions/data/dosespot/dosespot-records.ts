import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { deliveryKey } from '../notes/delivery-records.js';

/*
 * DoseSpot's PatientId for a Tidewell patient: pk practiceId, sk DOSESPOT_PATIENT#<patientId>,
 * written once when the patient is first sent, so later sign-ons and syncs reuse it instead of
 * adding the patient to DoseSpot again.
 */
export const doseSpotPatientKey = (patientId: string) => `DOSESPOT_PATIENT#${patientId}`;

export async function getDoseSpotPatientId(practiceId: string, patientId: string): Promise<string | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: doseSpotPatientKey(patientId) }, ConsistentRead: true }),
  );
  return typeof out.Item?.doseSpotPatientId === 'string' ? out.Item.doseSpotPatientId : undefined;
}

/** Stores the link once; false when another request linked the patient first. */
export async function putDoseSpotPatientLink(practiceId: string, patientId: string, doseSpotPatientId: string, now: Date): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { practiceId, sk: doseSpotPatientKey(patientId), entityType: 'DOSESPOT_PATIENT', patientId, doseSpotPatientId, linkedAt: now.toISOString() },
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
    return true;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    return false;
  }
}

export interface DoseSpotLink {
  patientId: string;
  doseSpotPatientId: string;
  /** When the scheduled sync last read this patient's prescriptions. */
  lastSyncedAt?: string;
}

/** Every patient sent to DoseSpot (one Query on the DOSESPOT_PATIENT# prefix): the ones that can have prescriptions there. */
export async function listDoseSpotLinks(practiceId: string): Promise<DoseSpotLink[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': practiceId, ':prefix': doseSpotPatientKey('') },
    ConsistentRead: true,
  });
  return items
    .filter((i) => typeof i.patientId === 'string' && typeof i.doseSpotPatientId === 'string')
    .map((i) => ({
      patientId: i.patientId as string,
      doseSpotPatientId: i.doseSpotPatientId as string,
      ...(typeof i.lastSyncedAt === 'string' ? { lastSyncedAt: i.lastSyncedAt } : {}),
    }));
}

export async function markDoseSpotSynced(practiceId: string, patientId: string, at: Date): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: doseSpotPatientKey(patientId) },
      UpdateExpression: 'SET lastSyncedAt = :at',
      ConditionExpression: 'attribute_exists(sk)',
      ExpressionAttributeValues: { ':at': at.toISOString() },
    }),
  );
}

/** The prescription's delivery item names its safety task and stops waiting for it; a gone item is left alone. */
export async function recordSafetyTask(practiceId: string, partnerId: string, prescriptionId: string, taskId: string): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: deliveryKey(partnerId, prescriptionId) },
        UpdateExpression: 'SET safetyTaskId = :t REMOVE safetyTaskPending',
        ExpressionAttributeValues: { ':t': taskId },
        ConditionExpression: 'attribute_exists(sk)',
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
