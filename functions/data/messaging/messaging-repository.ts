import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  ConversationRecord,
  SmsNoteData,
  type Conversation,
  type ConversationMessageSummary,
  type OptOutStatus,
  type Participant,
  type SmsAttachment,
  type SmsDeliveryStatus,
  type SmsMessage,
} from '../../../shared/messaging/messaging-schema.js';
import type { Note, NoteStatus } from '../../../shared/notes/note-schema.js';
import { nationalDigits } from '../../../shared/patients/phone.js';
import { batchGetAll } from '../../lib/table/batch.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem, parseStored, type Item } from '../../lib/table/item.js';
import { putIfUnchanged } from '../../lib/table/put-if-unchanged.js';
import { queryAll } from '../../lib/table/query-all.js';
import { fromItem as noteFromItem, noteKey, toItem as noteToItem } from '../notes/note-repository.js';

/*
 * Messaging items (docs/access-patterns.md):
 *   conversation   sk SMSCONV#<conversationId>; gsi1 gsi1pk SMSCONV (SMSCONV#ARCHIVED once archived), gsi1sk
 *                  <updatedAt>#<id> (most recent first); not archived also gsi2 gsi2pk SMSCONV#<readStatus>,
 *                  gsi2sk the same: each of the hub's tabs is one Query page of its own partition
 *   counts         sk SMSCONV_COUNTS: conversations per tab and unread texts, added to as each conversation
 *                  changes state, so the list's total and the unread count read one item (`indexed` once
 *                  the keys above were written over every conversation, see backfillConversationKeys)
 *   text           an SMS note, sk NOTE#<noteId> (chart timeline by gsi1 NOTES#<patientId> as every note),
 *                  plus gsi2 gsi2pk SMS#<patient phone>, gsi2sk <timestamp>#<noteId> (a phone's history)
 *   opt-out        sk SMSOPTOUT#<phone>: the phone's opt-out as the carrier last reported it
 */
export const CONVERSATION_PREFIX = 'SMSCONV#';
export const CONVERSATIONS_PARTITION = 'SMSCONV';
export const ARCHIVED_CONVERSATIONS_PARTITION = 'SMSCONV#ARCHIVED';
export const conversationsByStatusPartition = (readStatus: string) => `SMSCONV#${readStatus}`;
export const CONVERSATION_COUNTS_KEY = 'SMSCONV_COUNTS';
export const conversationKey = (id: string) => `${CONVERSATION_PREFIX}${id}`;
export const smsByPhonePartition = (patientPhone: string) => `SMS#${patientPhone}`;
export const optOutKey = (phone: string) => `SMSOPTOUT#${phone}`;

export { conversationIdFor } from './conversation-id.js';

export type { ConversationRecord };

/** The preview of the list (see Conversation.preview); a conversation from before lastInbound was kept shows its last message. */
export function conversationPreview(c: Pick<ConversationRecord, 'readStatus' | 'lastMessage' | 'lastInbound'>): ConversationMessageSummary | null {
  return (c.readStatus === 'UNREAD' && c.lastInbound) || c.lastMessage;
}

/** The API's conversation: the record without the fields kept for reads and search, with the number's opt-out. */
export function toConversation(c: ConversationRecord, optOut: Conversation['optOut']): Conversation {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { lastReadAt, patientNames, lastInbound, ...rest } = c;
  return { ...rest, preview: conversationPreview(c), optOut };
}

export function conversationItem(practiceId: string, c: ConversationRecord): Item {
  const recency = `${c.updatedAt}#${c.conversationId}`;
  return {
    ...c,
    practiceId,
    sk: conversationKey(c.conversationId),
    entityType: 'SMS_CONVERSATION',
    gsi1pk: c.archived ? ARCHIVED_CONVERSATIONS_PARTITION : CONVERSATIONS_PARTITION,
    gsi1sk: recency,
    ...(c.archived ? {} : { gsi2pk: conversationsByStatusPartition(c.readStatus), gsi2sk: recency }),
  };
}

export const conversationFromItem = (item: Item): ConversationRecord => parseItem('conversation', ConversationRecord, item);

/** Conversations per tab of the hub, and the unread texts the unread count shows. */
export interface ConversationCounts {
  all: number;
  unread: number;
  read: number;
  archived: number;
  unreadMessages: number;
}
type StateFields = Pick<ConversationRecord, 'archived' | 'readStatus' | 'unreadCount'>;

export function countsOf(c: StateFields | null): ConversationCounts {
  const open = !!c && !c.archived;
  const unread = open && c.readStatus === 'UNREAD';
  return {
    all: open ? 1 : 0,
    unread: unread ? 1 : 0,
    read: open && c.readStatus === 'READ' ? 1 : 0,
    archived: c?.archived ? 1 : 0,
    unreadMessages: unread ? Math.max(Number(c.unreadCount) || 0, 1) : 0,
  };
}

/**
 * A conversation went from `before` to `after`: the counts move by the difference. Each write
 * returns the exact item it replaced, so concurrent changes of one conversation add up right.
 */
async function countChange(practiceId: string, before: StateFields | null, after: StateFields | null): Promise<void> {
  const [b, a] = [countsOf(before), countsOf(after)];
  await addToConversationCounts(practiceId, {
    all: a.all - b.all,
    unread: a.unread - b.unread,
    read: a.read - b.read,
    archived: a.archived - b.archived,
    unreadMessages: a.unreadMessages - b.unreadMessages,
  });
}

/** Moves the practice's conversation counts by `delta`, in one ADD of the counts that move. */
export async function addToConversationCounts(practiceId: string, delta: ConversationCounts): Promise<void> {
  const changed = (Object.keys(delta) as (keyof ConversationCounts)[]).filter((k) => delta[k] !== 0);
  if (changed.length === 0) return;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: CONVERSATION_COUNTS_KEY },
      UpdateExpression: `ADD ${changed.map((k) => `#${k} :${k}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(changed.map((k) => [`#${k}`, k])),
      ExpressionAttributeValues: Object.fromEntries(changed.map((k) => [`:${k}`, delta[k]])),
    }),
  );
}

/** The counts, or null before every conversation carries its tab's keys (then the list reads them all). */
export async function getConversationCounts(practiceId: string): Promise<ConversationCounts | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CONVERSATION_COUNTS_KEY }, ConsistentRead: true }));
  const item = out.Item;
  if (!item?.indexed) return null;
  const n = (k: keyof ConversationCounts) => Math.max(Number(item[k]) || 0, 0);
  return { all: n('all'), unread: n('unread'), read: n('read'), archived: n('archived'), unreadMessages: n('unreadMessages') };
}

/** One page of a hub tab, most recently active first: `offset + limit` items of that tab's partition. */
export async function listConversationPage(filter: 'all' | 'unread' | 'read' | 'archived', offset: number, limit: number): Promise<ConversationRecord[]> {
  const index = filter === 'unread' || filter === 'read' ? INDEXES.gsi2 : INDEXES.gsi1;
  const pk =
    filter === 'all'
      ? CONVERSATIONS_PARTITION
      : filter === 'archived'
        ? ARCHIVED_CONVERSATIONS_PARTITION
        : conversationsByStatusPartition(filter === 'unread' ? 'UNREAD' : 'READ');
  const items = await queryAll(
    {
      IndexName: index.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': index.partitionKey },
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: false,
      Limit: offset + limit,
    },
    offset + limit,
  );
  return items.slice(offset).map(conversationFromItem);
}

export async function getConversation(practiceId: string, conversationId: string): Promise<ConversationRecord | null> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: conversationKey(conversationId) }, ConsistentRead: true }),
  );
  return out.Item ? conversationFromItem(out.Item) : null;
}

/** Writes the conversation unless it exists; true when this call created it. */
export async function putConversationIfAbsent(practiceId: string, c: ConversationRecord): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: conversationItem(practiceId, c), ConditionExpression: 'attribute_not_exists(sk)' }),
    );
    await countChange(practiceId, null, c);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function putConversation(practiceId: string, c: ConversationRecord): Promise<void> {
  const out = await documentClient().send(new PutCommand({ TableName: tableName(), Item: conversationItem(practiceId, c), ReturnValues: 'ALL_OLD' }));
  await countChange(practiceId, (out.Attributes as StateFields | undefined) ?? null, c);
}

/**
 * Every conversation, most recently active first: a search by name or phone fragment, and the
 * lists of a practice whose conversations have no tab keys yet, read them all (not one page).
 */
export async function listConversationRecords(): Promise<ConversationRecord[]> {
  const query = (pk: string) =>
    queryAll({ IndexName: INDEXES.gsi1.indexName, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ScanIndexForward: false });
  const items = [...(await query(CONVERSATIONS_PARTITION)), ...(await query(ARCHIVED_CONVERSATIONS_PARTITION))];
  return items.map(conversationFromItem).sort((a, b) => `${b.updatedAt}#${b.conversationId}`.localeCompare(`${a.updatedAt}#${a.conversationId}`));
}

/**
 * A new text changes the conversation's summary: its last message (and last inbound text), recency and (inbound) unread count.
 * An outbound text answers the conversation as written, so the sender's answer needs no second read of it.
 */
export async function recordConversationMessage(
  practiceId: string,
  conversationId: string,
  m: SmsMessage,
  inbound: boolean,
): Promise<ConversationRecord | null> {
  const last = { messageId: m.messageId, direction: m.direction, text: m.text, timestamp: m.timestamp, deliveryStatus: m.deliveryStatus };
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: conversationKey(conversationId) },
      ConditionExpression: 'attribute_exists(sk)',
      // An inbound text brings the conversation back to the Unread tab; gsi2sk without gsi2pk (archived) indexes nothing.
      UpdateExpression: inbound
        ? 'SET lastMessage = :last, lastInbound = :last, updatedAt = :at, gsi1sk = :gsk, gsi2sk = :gsk, gsi1pk = :open, gsi2pk = :unreadTab, readStatus = :unread, archived = :no ADD unreadCount :one'
        : 'SET lastMessage = :last, updatedAt = :at, gsi1sk = :gsk, gsi2sk = :gsk',
      ExpressionAttributeValues: {
        ':last': last,
        ':at': m.timestamp,
        ':gsk': `${m.timestamp}#${conversationId}`,
        ...(inbound
          ? { ':unread': 'UNREAD', ':no': false, ':one': 1, ':open': CONVERSATIONS_PARTITION, ':unreadTab': conversationsByStatusPartition('UNREAD') }
          : {}),
      },
      ReturnValues: inbound ? 'ALL_OLD' : 'ALL_NEW',
    }),
  );
  if (!inbound) return out.Attributes ? conversationFromItem(out.Attributes) : null;
  if (out.Attributes) {
    const before = out.Attributes as StateFields;
    await countChange(practiceId, before, { archived: false, readStatus: 'UNREAD', unreadCount: (Number(before.unreadCount) || 0) + 1 });
  }
  return null;
}

/**
 * A text brought back from the practice's own export: the conversation's last message when no later
 * text is there, its read state left as it is (restored texts are history, not new texts to answer).
 */
export async function recordRestoredMessage(practiceId: string, conversationId: string, m: SmsMessage): Promise<void> {
  const last = { messageId: m.messageId, direction: m.direction, text: m.text, timestamp: m.timestamp, deliveryStatus: m.deliveryStatus };
  const inbound = m.direction === 'inbound';
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: conversationKey(conversationId) },
        // Texts come back in any order: only a later one than the last message replaces it.
        ConditionExpression: 'attribute_exists(sk) AND (attribute_not_exists(lastMessage.#ts) OR lastMessage.#ts < :at)',
        UpdateExpression: `SET lastMessage = :last,${inbound ? ' lastInbound = :last,' : ''} updatedAt = :at, gsi1sk = :gsk, gsi2sk = :gsk`,
        ExpressionAttributeNames: { '#ts': 'timestamp' },
        ExpressionAttributeValues: { ':last': last, ':at': m.timestamp, ':gsk': `${m.timestamp}#${conversationId}` },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** The patients whose phones include the conversation's patient phone. */
export async function setConversationPatients(practiceId: string, conversationId: string, patientIds: string[], patientNames: string[]): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: conversationKey(conversationId) },
      ConditionExpression: 'attribute_exists(sk)',
      UpdateExpression: 'SET patientIds = :ids, patientNames = :names',
      ExpressionAttributeValues: { ':ids': patientIds, ':names': patientNames },
    }),
  );
}

/** The last message's delivery status follows its receipts. */
export async function updateLastMessageStatus(practiceId: string, conversationId: string, messageId: string, status: SmsDeliveryStatus): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: conversationKey(conversationId) },
        ConditionExpression: 'lastMessage.messageId = :id',
        UpdateExpression: 'SET lastMessage.deliveryStatus = :s',
        ExpressionAttributeValues: { ':id': messageId, ':s': status },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/* ---------- texts (SMS notes) ---------- */

export type { SmsNoteData };

/** An SMS note's data as its schema reads it. */
export const smsDataOf = (note: Pick<Note, 'noteId' | 'data'>): SmsNoteData => parseStored(SmsNoteData, note.data, `The data of SMS note ${note.noteId}`);

/** Note status of a text: spec notes §4 colours DELIVERED as success, FAILED as danger, SENT as pending. */
export function noteStatusOf(status: SmsDeliveryStatus): NoteStatus {
  if (status === 'FAILED') return 'FAILED';
  if (status === 'DELIVERED' || status === 'RECEIVED') return 'DELIVERED';
  return 'SENT';
}

/** An SMS note as stored: a note, also in its patient phone's history (gsi2). */
export function smsNoteItem(practiceId: string, note: Note): Item {
  const d = smsDataOf(note);
  return { ...noteToItem(practiceId, note), gsi2pk: smsByPhonePartition(d.patientPhoneNumber), gsi2sk: `${d.timestamp}#${note.noteId}` };
}

export function messageFromNote(note: Note, lastReadAt: string): SmsMessage {
  const d = smsDataOf(note);
  return {
    messageId: note.noteId,
    conversationId: d.conversationId,
    noteId: note.noteId,
    direction: d.direction,
    from: d.from,
    to: d.to,
    text: d.text ?? '',
    timestamp: d.timestamp,
    attachments: note.files.map((f) => ({ key: f.key, name: f.name, contentType: f.contentType ?? '', size: f.size ?? 0 })) as SmsAttachment[],
    deliveryStatus: d.deliveryStatus,
    failureReason: d.failureReason ?? null,
    readStatus: d.direction === 'inbound' && d.timestamp > lastReadAt ? 'UNREAD' : 'READ',
    patientId: note.patientId,
    sentBy: d.sentBy ?? null,
    scheduledEventId: d.scheduledEventId ?? null,
    notificationId: d.notificationId ?? null,
  };
}

/** Writes a new SMS note; false when a note with this id exists (a redelivered inbound text). */
export async function insertSmsNote(practiceId: string, note: Note): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: smsNoteItem(practiceId, note), ConditionExpression: 'attribute_not_exists(sk)' }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function getSmsNote(practiceId: string, noteId: string): Promise<Note | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: noteKey(noteId) }, ConsistentRead: true }));
  return out.Item && out.Item.noteType === 'SMS' ? noteFromItem(out.Item) : null;
}

/** Next version of an SMS note with new delivery data, conditioned on the version read (receipts may race). */
export async function writeSmsNoteVersion(practiceId: string, current: Note, data: Partial<SmsNoteData>, now: Date): Promise<Note | null> {
  const next: Note = {
    ...current,
    data: { ...current.data, ...data },
    status: current.status === 'DELETED' ? 'DELETED' : noteStatusOf(data.deliveryStatus ?? smsDataOf(current).deliveryStatus),
    noteVersion: current.noteVersion + 1,
    timestamp: now.toISOString(),
  };
  return (await putIfUnchanged(smsNoteItem(practiceId, next), 'noteVersion', current.noteVersion)) ? next : null;
}

/** Texts with one patient phone, newest first, before `before` (exclusive), up to `max`; the table stops reading once it has them. */
export async function listSmsNotesByPhone(patientPhone: string, opts: { before?: string; practicePhone?: string; max: number }): Promise<Note[]> {
  const values: Record<string, unknown> = { ':pk': smsByPhonePartition(patientPhone), ':sms': 'SMS', ':deleted': 'DELETED' };
  const names: Record<string, string> = { '#type': 'noteType', '#status': 'status' };
  let condition = 'gsi2pk = :pk';
  if (opts.before) {
    condition += ' AND gsi2sk < :before';
    values[':before'] = opts.before;
  }
  let filter = '#type = :sms AND #status <> :deleted';
  if (opts.practicePhone) {
    filter += ' AND #data.#practice = :practice';
    names['#data'] = 'data';
    names['#practice'] = 'practicePhoneNumber';
    values[':practice'] = opts.practicePhone;
  }
  const items = await queryAll(
    {
      IndexName: INDEXES.gsi2.indexName,
      KeyConditionExpression: condition,
      FilterExpression: filter,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: Math.max(opts.max, 25),
    },
    opts.max,
  );
  return items.map(noteFromItem);
}

/* ---------- opt-out ---------- */

export async function getOptOut(phone: string, practiceId: string): Promise<OptOutStatus> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: optOutKey(phone) }, ConsistentRead: true }));
  return optOutStatus(phone, out.Item);
}

/** Each number's opt-out, read together (BatchGetItem): a page of conversations in one round trip. */
export async function getOptOuts(phones: readonly string[], practiceId: string): Promise<(phone: string) => OptOutStatus> {
  const items = await batchGetAll([...new Set(phones)].map((phone) => ({ practiceId, sk: optOutKey(phone) })));
  const bySk = new Map(items.map((item) => [String(item.sk), item]));
  return (phone) => optOutStatus(phone, bySk.get(optOutKey(phone)));
}

function optOutStatus(phone: string, item: Record<string, unknown> | undefined): OptOutStatus {
  return {
    phoneNumber: phone,
    optedOut: item?.optedOut === true,
    optedOutAt: item?.optedOut === true ? String(item.optedOutAt) : null,
    keyword: item?.optedOut === true ? String(item.keyword ?? '') : null,
  };
}

export async function setOptOut(practiceId: string, phone: string, optedOut: boolean, keyword: string, at: string): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        practiceId,
        sk: optOutKey(phone),
        entityType: 'SMS_OPT_OUT',
        phoneNumber: phone,
        optedOut,
        keyword,
        optedOutAt: optedOut ? at : null,
        updatedAt: at,
      },
    }),
  );
}

/* ---------- participants ---------- */

export async function setParticipants(practiceId: string, conversationId: string, participants: Participant[], at: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: conversationKey(conversationId) },
      ConditionExpression: 'attribute_exists(sk)',
      UpdateExpression: 'SET participants = :p, updatedAt = if_not_exists(updatedAt, :at)',
      ExpressionAttributeValues: { ':p': participants, ':at': at },
    }),
  );
}

/** Same number written differently ("(541) 555-0100", "+15415550100") compares equal. */
export const samePhone = (a: string | null | undefined, b: string | null | undefined) => {
  const x = a ? nationalDigits(a) : null;
  return x !== null && x === (b ? nationalDigits(b) : null);
};
