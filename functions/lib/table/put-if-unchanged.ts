import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.js';
import { isConditionFailure } from './condition-failure.js';
import { tableName } from './definition.js';

/**
 * The optimistic write: puts `item` only if the stored item's `field` still holds `seen`, the value
 * read before the change (a version, a timestamp, a status). False when another write changed it
 * (or removed it) first, so the caller answers with its own conflict; any other failure is thrown.
 * A missing item has no `field`, so it never matches: this never creates an item.
 */
export async function putIfUnchanged(item: Record<string, unknown>, field: string, seen: unknown): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: '#seen = :seen', ExpressionAttributeNames: { '#seen': field }, ExpressionAttributeValues: { ':seen': seen } }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
