import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Reminder } from '../../../shared/reminders/reminder-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryIndexPartition } from '../../lib/table/query-all.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem, type Item } from '../../lib/table/item.js';

/*
 * Reminder items (docs/access-patterns.md):
 *   item          pk practiceId, sk REMINDER#<reminderId>
 *   by assignee   gsi1 gsi1pk REMINDERS#<userId>, gsi1sk <dueAt>#<reminderId>
 */
export const reminderKey = (reminderId: string) => `REMINDER#${reminderId}`;
export const remindersByAssigneePartition = (userId: string) => `REMINDERS#${userId}`;

function toItem(practiceId: string, r: Reminder): Item {
  return {
    ...r,
    practiceId,
    sk: reminderKey(r.reminderId),
    entityType: 'REMINDER',
    gsi1pk: remindersByAssigneePartition(r.assigned),
    gsi1sk: `${r.dueAt}#${r.reminderId}`,
  };
}

/** Items written before a field existed read as that field's default. */
const fromItem = (item: Item): Reminder =>
  parseItem('reminder', Reminder, { text: '', patientId: null, completionDate: null, firedAt: null, createdBy: '', lastUpdated: item.createdAt, ...item });

export async function getReminder(practiceId: string, reminderId: string): Promise<Reminder | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: reminderKey(reminderId) }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

export async function putReminder(practiceId: string, r: Reminder, condition: 'new' | 'exists'): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: toItem(practiceId, r),
      ConditionExpression: condition === 'new' ? 'attribute_not_exists(sk)' : 'attribute_exists(sk)',
    }),
  );
}

export async function deleteReminderItem(practiceId: string, reminderId: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: reminderKey(reminderId) } }));
}

/** Records the fire once; false when it was already recorded (a second delivery). */
export async function markFired(practiceId: string, reminderId: string, at: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: reminderKey(reminderId) },
        UpdateExpression: 'SET firedAt = :at',
        ConditionExpression: 'attribute_exists(sk) AND (attribute_not_exists(firedAt) OR firedAt = :null)',
        ExpressionAttributeValues: { ':at': at, ':null': null },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function listRemindersOf(userId: string): Promise<Reminder[]> {
  return (await queryIndexPartition(INDEXES.gsi1, remindersByAssigneePartition(userId))).map(fromItem);
}
