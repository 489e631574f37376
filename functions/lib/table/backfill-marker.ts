import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.js';
import { isConditionFailure } from './condition-failure.js';
import { tableName } from './definition.js';

/*
 * A backfill gives items written before a key existed that key, then writes its marker last: the
 * reads that wait for the marker go by page from then on, and the backfill runs once per practice.
 */

/** Whether the marker is there, read consistently so a backfill that just finished is seen at once. */
export async function markerWritten(practiceId: string, sk: string): Promise<boolean> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk }, ConsistentRead: true }));
  return Boolean(out.Item);
}

/** The backfill's last write, with how many items it gave keys. */
export async function writeMarker(practiceId: string, sk: string, entityType: string, written: number): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { practiceId, sk, entityType, backfilledAt: new Date().toISOString(), written } }),
  );
}

/**
 * Sets an item's index keys while `condition` holds; false when it no longer does, because a newer
 * write changed the item meanwhile and set keys of its own.
 */
export async function setKeysIf(
  practiceId: string,
  sk: unknown,
  keys: Record<string, string>,
  condition: string,
  values: Record<string, unknown> = {},
): Promise<boolean> {
  const names = Object.keys(keys);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk },
        UpdateExpression: `SET ${names.map((n, i) => `#k${i} = :k${i}`).join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#k${i}`, n])),
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((n, i) => [`:k${i}`, keys[n]])), ...values },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
