import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ConversationMessageSummary } from '../../../shared/messaging/messaging-schema.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import {
  ARCHIVED_CONVERSATIONS_PARTITION,
  CONVERSATION_COUNTS_KEY,
  CONVERSATIONS_PARTITION,
  conversationFromItem,
  conversationItem,
  conversationKey,
  countsOf,
  listSmsNotesByPhone,
  type ConversationCounts,
  smsDataOf,
} from './messaging-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack): writes each conversation's
 * tab keys and the counts. Conversations written before the tab keys were listed by reading all
 * of them; until this has run they still are.
 */
export async function backfillConversationKeys(practiceId: string): Promise<number> {
  const marker = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CONVERSATION_COUNTS_KEY }, ConsistentRead: true }),
  );
  if (marker.Item?.indexed) return 0;
  const records = [
    ...(await queryAll({
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': CONVERSATIONS_PARTITION },
    })),
    ...(await queryAll({
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': ARCHIVED_CONVERSATIONS_PARTITION },
    })),
  ].map(conversationFromItem);
  const total: ConversationCounts = { all: 0, unread: 0, read: 0, archived: 0, unreadMessages: 0 };
  for (const c of records) {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: conversationItem(practiceId, c) }));
    const one = countsOf(c);
    for (const k of Object.keys(total) as (keyof ConversationCounts)[]) total[k] += one[k];
  }
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: CONVERSATION_COUNTS_KEY, entityType: 'SMS_CONVERSATION_COUNTS', ...total, indexed: true },
    }),
  );
  return records.length;
}

const PAGE = 25;

/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack; after the keys above): an
 * unread conversation whose patient last texted before the item kept `lastInbound` gets it from
 * its texts, so the list previews the question to answer rather than a later practice text. A
 * conversation whose patient never texted gets null (it previews its last message). A text that
 * arrives meanwhile has written lastInbound itself and is left alone. Answers how many were written.
 */
export async function backfillLastInbound(practiceId: string): Promise<number> {
  const marker = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CONVERSATION_COUNTS_KEY }, ConsistentRead: true }),
  );
  if (marker.Item?.lastInboundKept) return 0;
  const records = [
    ...(await queryAll({
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': CONVERSATIONS_PARTITION },
    })),
    ...(await queryAll({
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': ARCHIVED_CONVERSATIONS_PARTITION },
    })),
  ]
    .map(conversationFromItem)
    .filter((c) => c.readStatus === 'UNREAD' && c.lastInbound === undefined);
  let written = 0;
  for (const c of records) {
    const lastInbound = c.lastMessage?.direction === 'inbound' ? c.lastMessage : await latestInbound(c.patientPhoneNumber, c.practicePhoneNumber);
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { practiceId, sk: conversationKey(c.conversationId) },
          ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(lastInbound)',
          UpdateExpression: 'SET lastInbound = :last',
          ExpressionAttributeValues: { ':last': lastInbound },
        }),
      );
      written += 1;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: CONVERSATION_COUNTS_KEY },
      UpdateExpression: 'SET lastInboundKept = :yes',
      ExpressionAttributeValues: { ':yes': true },
    }),
  );
  return written;
}

/** The patient's latest text to this practice number, read newest first a page at a time. */
async function latestInbound(patientPhone: string, practicePhone: string): Promise<ConversationMessageSummary | null> {
  for (let before: string | undefined; ;) {
    const notes = await listSmsNotesByPhone(patientPhone, { before, practicePhone, max: PAGE });
    for (const note of notes) {
      const d = smsDataOf(note);
      if (d.direction === 'inbound')
        return { messageId: note.noteId, direction: d.direction, text: d.text ?? '', timestamp: d.timestamp, deliveryStatus: d.deliveryStatus };
    }
    if (notes.length < PAGE) return null;
    const oldest = notes[notes.length - 1];
    before = `${smsDataOf(oldest).timestamp}#${oldest.noteId}`;
  }
}
