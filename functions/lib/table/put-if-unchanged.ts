import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.js';
import { isConditionFailure } from './condition-failure.js';
import { tableName } from './definition.js';

/**
 * The condition of an optimistic write: the stored item's `field` still holds `seen`, the value read
 * before the change (a version, a timestamp, a status). A missing item has no `field`, so it never
 * matches: a write under this condition never creates an item. Spread it into a Put, Update or
 * Delete, alone or inside a transaction; the names are placeholders so reserved words (status) work.
 */
export const unchangedSince = (field: string, seen: unknown) => ({
  ConditionExpression: '#f = :seen',
  ExpressionAttributeNames: { '#f': field },
  ExpressionAttributeValues: { ':seen': seen },
});

/**
 * Puts `item` only if it is unchanged since it was read (see unchangedSince). False when another
 * write changed or removed it first, so the caller answers with its own conflict; any other
 * failure is thrown.
 */
export function putIfUnchanged(item: Record<string, unknown>, field: string, seen: unknown): Promise<boolean> {
  return documentClient()
    .send(new PutCommand({ TableName: tableName(), Item: item, ...unchangedSince(field, seen) }))
    .then(
      () => true,
      (error: unknown) => {
        if (isConditionFailure(error)) return false;
        throw error;
      },
    );
}
