import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { setKeysIf } from '../../lib/table/backfill-marker.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { dayCounter, datedIndexKeys, hasDay, type DatedList } from './dated-list.js';

// Kept out of the list module so no Lambda bundle carries it.
/**
 * Maintenance, once per practice: gives the items written before the list was paged their index
 * keys, counts the ones not deleted in all and per day, and marks the counts `listed` (leaving the
 * counts item's other attributes). Returns how many items it read, 0 once the list is marked.
 */
export async function backfillDatedList(list: DatedList, practiceId: string): Promise<number> {
  const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: list.countsKey }, ConsistentRead: true }));
  if (marker.Item?.listed) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': list.itemPrefix },
    ProjectionExpression: 'sk, ident, createdAt, deleted, gsi1pk',
  });
  const days = new Map<string, Record<string, number>>();
  let total = 0;
  for (const item of items) {
    const dated = { ident: String(item.ident), createdAt: String(item.createdAt ?? '') };
    if (item.gsi1pk === undefined) {
      const keys = datedIndexKeys(list, practiceId, dated);
      // Deleted meanwhile: the key would bring back an item that is gone.
      await setKeysIf(practiceId, item.sk, keys, 'attribute_exists(sk)');
    }
    if (item.deleted === true) continue;
    total += 1;
    if (!hasDay(dated.createdAt)) continue;
    const counter = dayCounter(list, dated.createdAt);
    const month = days.get(counter.sk) ?? {};
    month[counter.attribute] = (month[counter.attribute] ?? 0) + 1;
    days.set(counter.sk, month);
  }
  for (const [sk, counts] of days)
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId, sk, entityType: list.daysEntity, ...counts } }));
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: list.countsKey },
      UpdateExpression: 'SET entityType = :e, #total = :t, listed = :y',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':e': list.countsKey, ':t': total, ':y': true },
    }),
  );
  return items.length;
}
