import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { queryAll } from '../lib/table/query-all.js';
import { CALL_COUNTS_KEY, CALL_PREFIX, unreadOf } from './call-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime runs it at start): counts the unread calls
 * written before the counts item was kept. Until this has run, the call count reads every call.
 */
export async function backfillCallCounts(practiceId: string): Promise<number> {
  const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_COUNTS_KEY }, ConsistentRead: true }));
  if (marker.Item?.indexed) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CALL_PREFIX },
    ProjectionExpression: '#s, deleted',
    ExpressionAttributeNames: { '#s': 'status' },
  });
  const unread = items.reduce((n, item) => n + unreadOf(item), 0);
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId, sk: CALL_COUNTS_KEY, entityType: 'CALL_COUNTS', unread, indexed: true } }));
  return items.length;
}
