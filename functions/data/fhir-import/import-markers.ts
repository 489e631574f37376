/**
 * The FHIR import's markers: one item per resource brought into a chart (sk
 * FHIRIMPORT#<patientId>#<importKey>), written before what it makes, so a resource brought in once
 * never comes in twice; an appointment's marker also records the appointment it made (a later
 * occurrence of the series finds it). A practice import's source marker (sk
 * FHIRIMPORT#SOURCE#<sourceKey>) names the chart the source's patient became.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

export const importMarkerKey = (patientId: string, key: string) => `FHIRIMPORT#${patientId}#${key}`;
const sourceMarker = (sourceKey: string) => `FHIRIMPORT#SOURCE#${sourceKey}`;

/** The import keys already brought into the patient's chart. */
export async function importedKeys(practiceId: string, patientId: string): Promise<Set<string>> {
  const prefix = importMarkerKey(patientId, '');
  const rows = await queryAll({
    KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': practiceId, ':prefix': prefix },
    ProjectionExpression: 'sk',
  });
  return new Set(rows.map((r) => String(r.sk).slice(prefix.length)));
}

/** Writes the resource's marker if absent: false when it was brought in before (by this run or another). */
export async function claimImportMarker(practiceId: string, patientId: string, key: string, resourceType: string, at: string): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { practiceId, sk: importMarkerKey(patientId, key), entityType: 'FHIR_IMPORT', resourceType, importedAt: at },
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A marker given back: what it was written for was refused, so a later run may try it again. */
export async function releaseImportMarker(practiceId: string, patientId: string, key: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: importMarkerKey(patientId, key) } }));
}

/** The appointment an imported series' marker records. */
export async function markedAppointmentId(practiceId: string, patientId: string, key: string): Promise<string | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: importMarkerKey(patientId, key) }, ConsistentRead: true }),
  );
  return out.Item?.appointmentId as string | undefined;
}

export async function recordMarkedAppointment(practiceId: string, patientId: string, key: string, appointmentId: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: importMarkerKey(patientId, key) },
      UpdateExpression: 'SET appointmentId = :id',
      ExpressionAttributeValues: { ':id': appointmentId },
    }),
  );
}

/** The chart a practice import's source patient became, if it came in before. */
export async function sourcePatientChart(practiceId: string, sourceKey: string): Promise<string | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: sourceMarker(sourceKey) }, ConsistentRead: true }));
  return found.Item ? String(found.Item.patientId) : undefined;
}

/** Claims a new chart id for the source patient: false when another request claimed one first. */
export async function claimSourcePatientChart(practiceId: string, sourceKey: string, patientId: string, at: string): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { practiceId, sk: sourceMarker(sourceKey), entityType: 'FHIR_IMPORT_SOURCE', patientId, importedAt: at },
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}
