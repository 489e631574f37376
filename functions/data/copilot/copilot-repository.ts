import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CopilotConversation, CopilotMessage, CopilotRole } from '../../../shared/ai/copilot-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import type { Item } from '../../lib/table/item.js';
import { queryAll } from '../../lib/table/query-all.js';

/** Key builders (docs/access-patterns.md, Copilot rows). A user's chats are theirs alone. */
export const conversationKey = (conversationId: string) => `COPILOTCONV#${conversationId}`;
export const conversationsOfUser = (userId: string) => `COPILOTCONVS#${userId}`;
export const conversationsOfUserAndPatient = (userId: string, patientId: string) => `COPILOTCONVS#${userId}#PATIENT#${patientId}`;
export const messagePrefix = (conversationId: string) => `COPILOTMSG#${conversationId}#`;
export const messageKey = (conversationId: string, createdAt: string, ident: string) => `${messagePrefix(conversationId)}${createdAt}#${ident}`;

/** Keyword search reads this lower-case text: the summary and what the user asked, bounded. */
const SEARCH_TEXT_MAX = 4000;
const SUMMARY_MAX = 120;

export interface StoredConversation extends CopilotConversation {
  ownerUserId: string;
  searchText: string;
}

export function summaryOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}

function fromConversationItem(item: Item): StoredConversation {
  return {
    conversationId: item.conversationId as string,
    summary: (item.summary as string) ?? '',
    createdAt: item.createdAt as string,
    updatedAt: (item.updatedAt as string) ?? (item.createdAt as string),
    patientId: (item.patientId as string | undefined) ?? null,
    ownerUserId: item.ownerUserId as string,
    searchText: (item.searchText as string) ?? '',
  };
}

export function publicConversation(c: StoredConversation): CopilotConversation {
  return { conversationId: c.conversationId, summary: c.summary, createdAt: c.createdAt, updatedAt: c.updatedAt, patientId: c.patientId ?? null };
}

export async function getConversation(practiceId: string, conversationId: string): Promise<StoredConversation | null> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: conversationKey(conversationId) }, ConsistentRead: true }),
  );
  return out.Item ? fromConversationItem(out.Item) : null;
}

/** Creates the conversation once; false when the id already exists (the caller then reads it). */
export async function createConversation(practiceId: string, c: StoredConversation): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          practiceId,
          sk: conversationKey(c.conversationId),
          entityType: 'COPILOT_CONVERSATION',
          conversationId: c.conversationId,
          ownerUserId: c.ownerUserId,
          summary: c.summary,
          searchText: c.searchText.slice(0, SEARCH_TEXT_MAX),
          createdAt: c.createdAt,
          updatedAt: c.updatedAt,
          ...(c.patientId
            ? { patientId: c.patientId, gsi2pk: conversationsOfUserAndPatient(c.ownerUserId, c.patientId), gsi2sk: `${c.createdAt}#${c.conversationId}` }
            : {}),
          gsi1pk: conversationsOfUser(c.ownerUserId),
          gsi1sk: `${c.createdAt}#${c.conversationId}`,
        },
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error)?.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Later questions join the searchable text (bounded) and move updatedAt. */
export async function touchConversation(practiceId: string, c: StoredConversation, question: string, at: string): Promise<void> {
  const searchText = `${c.searchText} ${question.toLowerCase()}`.slice(0, SEARCH_TEXT_MAX);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: conversationKey(c.conversationId) },
      UpdateExpression: 'SET updatedAt = :at, searchText = :text',
      ConditionExpression: 'attribute_exists(sk)',
      ExpressionAttributeValues: { ':at': at, ':text': searchText },
    }),
  );
}

/** Every conversation of a user (or of a user about one patient), newest first. A user's own chats are few. */
export async function listConversations(practiceId: string, userId: string, patientId?: string): Promise<StoredConversation[]> {
  const index = patientId ? INDEXES.gsi2 : INDEXES.gsi1;
  const items = await queryAll({
    IndexName: index.indexName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': index.partitionKey },
    ExpressionAttributeValues: { ':pk': patientId ? conversationsOfUserAndPatient(userId, patientId) : conversationsOfUser(userId) },
    ScanIndexForward: false,
  });
  // gsi2 also holds other entities' keys; the partition value is ours alone, so every item is a conversation.
  return items.filter((i) => i.entityType === 'COPILOT_CONVERSATION' && i.practiceId === practiceId).map(fromConversationItem);
}

export async function putMessage(
  practiceId: string,
  conversationId: string,
  m: { ident: string; role: CopilotRole; content: string; createdAt: string },
): Promise<CopilotMessage> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        practiceId,
        sk: messageKey(conversationId, m.createdAt, m.ident),
        entityType: 'COPILOT_MESSAGE',
        conversationId,
        ident: m.ident,
        role: m.role,
        content: m.content,
        createdAt: m.createdAt,
      },
    }),
  );
  return toMessage(m);
}

function toMessage(m: { ident: string; role: CopilotRole; content: string; createdAt: string }): CopilotMessage {
  return { ident: m.ident, role: m.role, content: m.content, timestamp: m.createdAt, createdAt: m.createdAt };
}

/** A page counted back from the newest message (offset 0 = the latest `limit`), returned in time order. */
export async function listMessages(
  practiceId: string,
  conversationId: string,
  offset: number,
  limit: number,
): Promise<{ messages: CopilotMessage[]; hasMore: boolean }> {
  const wanted = offset + limit + 1;
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':p': practiceId, ':prefix': messagePrefix(conversationId) },
        ScanIndexForward: false,
        Limit: wanted - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < wanted);
  const page = items.slice(offset, offset + limit).reverse();
  return {
    messages: page.map((i) =>
      toMessage({ ident: i.ident as string, role: i.role as CopilotRole, content: i.content as string, createdAt: i.createdAt as string }),
    ),
    hasMore: items.length > offset + limit,
  };
}
