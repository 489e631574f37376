import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import {
  ARCHIVED_CONVERSATIONS_PARTITION,
  CONVERSATION_COUNTS_KEY,
  CONVERSATIONS_PARTITION,
  conversationFromItem,
  conversationItem,
  countsOf,
  type ConversationCounts,
} from './messaging-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime runs it at start): writes each conversation's
 * tab keys and the counts. Conversations written before the tab keys were listed by reading all
 * of them; until this has run they still are.
 */
export async function backfillConversationKeys(practiceId: string): Promise<number> {
  const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CONVERSATION_COUNTS_KEY }, ConsistentRead: true }));
  if (marker.Item?.indexed) return 0;
  const records = [
    ...(await queryAll({ IndexName: INDEXES.gsi1.indexName, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': CONVERSATIONS_PARTITION } })),
    ...(await queryAll({ IndexName: INDEXES.gsi1.indexName, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': ARCHIVED_CONVERSATIONS_PARTITION } })),
  ].map(conversationFromItem);
  const total: ConversationCounts = { all: 0, unread: 0, read: 0, archived: 0, unreadMessages: 0 };
  for (const c of records) {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: conversationItem(practiceId, c) }));
    const one = countsOf(c);
    for (const k of Object.keys(total) as (keyof ConversationCounts)[]) total[k] += one[k];
  }
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId, sk: CONVERSATION_COUNTS_KEY, entityType: 'SMS_CONVERSATION_COUNTS', ...total, indexed: true } }));
  return records.length;
}
