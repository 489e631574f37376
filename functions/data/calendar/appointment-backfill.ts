import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { tableName } from '../../lib/table/definition.js';
import {
  appointmentFromItem,
  byPrefix,
  copyItem,
  getItem,
  PATIENT_KEYS_MARKER,
  patientCopyItem,
  patientCopyKey,
  PROVIDER_KEYS_MARKER,
  providerCopyKey,
  put,
} from './calendar-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack): gives every appointment
 * series written before the provider copies its copy, then marks the practice so the
 * double-booking check reads the copies only.
 */
export async function backfillProviderAppointmentKeys(practiceId: string): Promise<number> {
  if (await getItem(practiceId, PROVIDER_KEYS_MARKER)) return 0;
  let written = 0;
  for (const item of await byPrefix(practiceId, 'APPOINTMENT#')) {
    if (item.conflictSk) continue;
    const a = appointmentFromItem(item);
    const copySk = providerCopyKey(a, typeof item.seriesEnd === 'string' ? item.seriesEnd : null);
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: { practiceId, sk: item.sk },
                UpdateExpression: 'SET conflictSk = :c',
                ConditionExpression: 'updatedAt = :u AND attribute_not_exists(conflictSk)',
                ExpressionAttributeValues: { ':c': copySk, ':u': a.updatedAt },
              },
            },
            { Put: { TableName: tableName(), Item: copyItem(practiceId, a, typeof item.seriesEnd === 'string' ? item.seriesEnd : null) } },
          ],
        }),
      );
      written++;
    } catch (error) {
      // Changed meanwhile: the change wrote its own copy.
      if (!isConditionFailure(error)) throw error;
    }
  }
  await put(practiceId, PROVIDER_KEYS_MARKER, 'CALENDAR_KEYS', { backfilledAt: new Date().toISOString(), written });
  return written;
}

/**
 * The same once per practice for the patient copies: every series written before them gets its
 * copy under its patient, then the mark lets the chart header's next visits read the copies only.
 */
export async function backfillPatientAppointmentKeys(practiceId: string): Promise<number> {
  if (await getItem(practiceId, PATIENT_KEYS_MARKER)) return 0;
  let written = 0;
  for (const item of await byPrefix(practiceId, 'APPOINTMENT#')) {
    if (item.patientSk) continue;
    const a = appointmentFromItem(item);
    const seriesEnd = typeof item.seriesEnd === 'string' ? item.seriesEnd : null;
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: { practiceId, sk: item.sk },
                UpdateExpression: 'SET patientSk = :c',
                ConditionExpression: 'updatedAt = :u AND attribute_not_exists(patientSk)',
                ExpressionAttributeValues: { ':c': patientCopyKey(a, seriesEnd), ':u': a.updatedAt },
              },
            },
            { Put: { TableName: tableName(), Item: patientCopyItem(practiceId, a, seriesEnd) } },
          ],
        }),
      );
      written++;
    } catch (error) {
      // Changed meanwhile: the change wrote its own copy.
      if (!isConditionFailure(error)) throw error;
    }
  }
  await put(practiceId, PATIENT_KEYS_MARKER, 'CALENDAR_KEYS', { backfilledAt: new Date().toISOString(), written });
  return written;
}
