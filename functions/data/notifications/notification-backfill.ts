import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { markerWritten, setKeysIf, writeMarker } from '../../lib/table/backfill-marker.js';
import { NOTIFICATION_TYPES, UNREAD_NOTIFICATION_STATUSES } from '../../../shared/notifications/notification-constants.js';
import type { Notification } from '../../../shared/notifications/notification-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import {
  bySourceKeys,
  countsOf,
  fromItem,
  NOTIFICATION_COUNTS_KEY,
  NOTIFICATION_PEOPLE_MARKER,
  NOTIFICATION_SMS_PAIR_MARKER,
  notificationsByStatusPartition,
  peopleItem,
} from './notification-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack): counts the unread
 * notifications written before the counts item was kept. Until this has run, the unread count
 * reads every unread notification.
 */
export async function backfillNotificationCounts(practiceId: string): Promise<number> {
  const marker = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: NOTIFICATION_COUNTS_KEY }, ConsistentRead: true }),
  );
  if (marker.Item?.indexed) return 0;
  const total: Record<string, number> = {};
  let counted = 0;
  for (const type of NOTIFICATION_TYPES) {
    for (const status of UNREAD_NOTIFICATION_STATUSES) {
      const items = await queryAll({
        IndexName: INDEXES.gsi2.indexName,
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': notificationsByStatusPartition(type, status) },
        ProjectionExpression: 'notificationType, notificationStatus, assigned',
      });
      for (const item of items) {
        for (const [k, v] of Object.entries(countsOf(item as Pick<Notification, 'notificationType' | 'notificationStatus' | 'assigned'>)))
          total[k] = (total[k] ?? 0) + v;
        counted += 1;
      }
    }
  }
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { practiceId, sk: NOTIFICATION_COUNTS_KEY, entityType: 'NOTIFICATION_COUNTS', ...total, indexed: true } }),
  );
  return counted;
}

/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app
 * stack): gives the notifications assigned or related to someone before the by-person copies were
 * kept their copy, then writes the marker that lets the list read those partitions. Until this
 * has run, a list filtered on an assignee or on relatedTo filters every notification of its types.
 */
export async function backfillNotificationPeopleKeys(practiceId: string): Promise<number> {
  if (await markerWritten(practiceId, NOTIFICATION_PEOPLE_MARKER)) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    FilterExpression: 'isLatestVersion = :true',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': 'NOTIFICATION#', ':true': true },
  });
  let written = 0;
  for (const item of items) {
    const n = fromItem(item);
    const copy = peopleItem(n);
    if (!copy) continue;
    await documentClient()
      .send(
        new TransactWriteCommand({
          TransactItems: [
            // Updated meanwhile: that write kept the newer version's copy.
            {
              ConditionCheck: {
                TableName: tableName(),
                Key: { practiceId, sk: n.sk },
                ConditionExpression: 'isLatestVersion = :true',
                ExpressionAttributeValues: { ':true': true },
              },
            },
            { Put: { TableName: tableName(), Item: copy } },
          ],
        }),
      )
      .then(() => written++)
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
  await writeMarker(practiceId, NOTIFICATION_PEOPLE_MARKER, 'NOTIFICATION_KEYS', written);
  return written;
}

/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app
 * stack): puts each open SMS notification written without a sourceId under its two numbers, then
 * writes the marker that lets a conversation's read and archive read its own notifications. Until
 * this has run, they look through the practice's newest open SMS notifications.
 */
export async function backfillSmsPairKeys(practiceId: string): Promise<number> {
  if (await markerWritten(practiceId, NOTIFICATION_SMS_PAIR_MARKER)) return 0;
  let written = 0;
  for (const status of ['UNREAD', 'UPDATED', 'READ', 'COMPLETED'] as const) {
    const items = await queryAll({
      IndexName: INDEXES.gsi2.indexName,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': notificationsByStatusPartition('SMS', status) },
    });
    for (const item of items) {
      if (item.gsi1pk) continue;
      const keys = bySourceKeys(fromItem(item));
      if (!keys.gsi1pk) continue;
      // Updated meanwhile: that write kept the newer version's keys.
      if (await setKeysIf(practiceId, item.sk, { gsi1pk: keys.gsi1pk, gsi1sk: keys.gsi1sk! }, 'isLatestVersion = :true', { ':true': true })) written++;
    }
  }
  await writeMarker(practiceId, NOTIFICATION_SMS_PAIR_MARKER, 'NOTIFICATION_KEYS', written);
  return written;
}
