import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ScheduledEvent } from '../../../shared/messaging/messaging-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import { putIfUnchanged } from '../../lib/table/put-if-unchanged.js';
import { queryAll } from '../../lib/table/query-all.js';

/*
 * Scheduled events (docs/access-patterns.md): sk SCHEDEVENT#<eventId>; gsi1 gsi1pk SCHEDEVENTS,
 * gsi1sk <when>#<eventId> (sorted by when). `status` moves active → processing → completed / failed
 * (or active → deleted) only by a write conditioned on the status it leaves.
 */
export const scheduledEventKey = (eventId: string) => `SCHEDEVENT#${eventId}`;
export const SCHEDULED_EVENTS_PARTITION = 'SCHEDEVENTS';

const toItem = (practiceId: string, e: ScheduledEvent): Item => ({
  ...e,
  practiceId,
  sk: scheduledEventKey(e.eventId),
  entityType: 'SCHEDULED_EVENT',
  gsi1pk: SCHEDULED_EVENTS_PARTITION,
  gsi1sk: `${e.when}#${e.eventId}`,
});
const fromItem = (item: Item): ScheduledEvent => parseItem('scheduled event', ScheduledEvent, item);

export async function getScheduledEvent(practiceId: string, eventId: string): Promise<ScheduledEvent | null> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: scheduledEventKey(eventId) }, ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : null;
}

/** Every scheduled event of the practice, sorted by when (gsi1 SCHEDEVENTS). */
export async function queryScheduledEventsByWhen(): Promise<ScheduledEvent[]> {
  return (
    await queryAll({
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': SCHEDULED_EVENTS_PARTITION },
    })
  ).map(fromItem);
}

/** A new event; its id is fresh, so an existing item means a bug and the write fails. */
export async function insertScheduledEvent(practiceId: string, e: ScheduledEvent): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: toItem(practiceId, e), ConditionExpression: 'attribute_not_exists(sk)' }));
}

/**
 * Writes `next` only if the stored event is still in status `from` (the exactly-once guard of
 * each transition); false when another write moved it first.
 */
export function putScheduledEventIfStatus(practiceId: string, next: ScheduledEvent, from: ScheduledEvent['status']): Promise<boolean> {
  return putIfUnchanged(toItem(practiceId, next), 'status', from);
}
