import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Appointment } from '../../../shared/calendar/calendar-schema.js';
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
interface CopyKind {
  /** The series item's attribute naming its copy; a series that has it is done. */
  attribute: 'conflictSk' | 'patientSk';
  marker: string;
  keyOf(a: Appointment, seriesEnd: string | null): string;
  itemOf(practiceId: string, a: Appointment, seriesEnd: string | null): Record<string, unknown>;
}

/** Gives every series written before a kind of copy its copy (each in one transaction with the series' mark), then marks the practice. */
async function backfillCopies(practiceId: string, kind: CopyKind): Promise<number> {
  if (await getItem(practiceId, kind.marker)) return 0;
  let written = 0;
  for (const item of await byPrefix(practiceId, 'APPOINTMENT#')) {
    if (item[kind.attribute]) continue;
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
                UpdateExpression: 'SET #copy = :c',
                ConditionExpression: 'updatedAt = :u AND attribute_not_exists(#copy)',
                ExpressionAttributeNames: { '#copy': kind.attribute },
                ExpressionAttributeValues: { ':c': kind.keyOf(a, seriesEnd), ':u': a.updatedAt },
              },
            },
            { Put: { TableName: tableName(), Item: kind.itemOf(practiceId, a, seriesEnd) } },
          ],
        }),
      );
      written++;
    } catch (error) {
      // Changed meanwhile: the change wrote its own copy.
      if (!isConditionFailure(error)) throw error;
    }
  }
  await put(practiceId, kind.marker, 'CALENDAR_KEYS', { backfilledAt: new Date().toISOString(), written });
  return written;
}

/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack): gives every appointment
 * series written before the provider copies its copy, then marks the practice so the
 * double-booking check reads the copies only.
 */
export const backfillProviderAppointmentKeys = (practiceId: string): Promise<number> =>
  backfillCopies(practiceId, { attribute: 'conflictSk', marker: PROVIDER_KEYS_MARKER, keyOf: providerCopyKey, itemOf: copyItem });

/**
 * The same once per practice for the patient copies: every series written before them gets its
 * copy under its patient, then the mark lets the chart header's next visits read the copies only.
 */
export const backfillPatientAppointmentKeys = (practiceId: string): Promise<number> =>
  backfillCopies(practiceId, { attribute: 'patientSk', marker: PATIENT_KEYS_MARKER, keyOf: patientCopyKey, itemOf: patientCopyItem });
