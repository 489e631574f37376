import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PendingReminder } from '../../../shared/calendar/calendar-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { parseItem } from '../../lib/table/item.js';
import { queryAll } from '../../lib/table/query-all.js';

/*
 * An appointment series' pending reminder text (docs/calendar.md, docs/access-patterns.md): pk practiceId,
 * sk APPTREMINDER#<appointmentId> → the one-time schedule of its next occurrence's reminder, so a
 * move or a cancel finds and replaces it. At most one per series.
 */
const reminderKey = (appointmentId: string) => `APPTREMINDER#${appointmentId}`;

export type { PendingReminder };

export async function getPendingReminder(practiceId: string, appointmentId: string): Promise<PendingReminder | null> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: reminderKey(appointmentId) }, ConsistentRead: true }),
  );
  return out.Item ? parseItem('pending reminder', PendingReminder, out.Item) : null;
}

export async function putPendingReminder(practiceId: string, record: PendingReminder): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { ...record, practiceId, sk: reminderKey(record.appointmentId), entityType: 'APPOINTMENT_REMINDER' } }),
  );
}

export async function deletePendingReminder(practiceId: string, appointmentId: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: reminderKey(appointmentId) } }));
}

/** The appointments that have a pending reminder (keys only). */
export async function pendingReminderAppointmentIds(practiceId: string): Promise<string[]> {
  const pending = await queryAll({
    KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': practiceId, ':prefix': reminderKey('') },
    ProjectionExpression: 'appointmentId',
  });
  return pending.map((p) => String(p.appointmentId));
}
