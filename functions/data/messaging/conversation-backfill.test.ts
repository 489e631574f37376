import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTable, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { backfillLastInbound } from './conversation-backfill.js';
import { CONVERSATION_COUNTS_KEY, conversationItem, getConversation, insertSmsNote, toConversation, type ConversationRecord } from './messaging-repository.js';

const PRACTICE_PHONE = '+15415550100';
const OPT_IN = { phoneNumber: '', optedOut: false, keyword: null, optedOutAt: null } as unknown as Parameters<typeof toConversation>[1];

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(async () => {
  await table?.stop();
});

function text(id: string, patientPhone: string, direction: 'inbound' | 'outbound', body: string, at: string): Note {
  return {
    noteId: id,
    noteType: 'SMS',
    status: 'DELIVERED',
    signed: null,
    eventTimestamp: at,
    timestamp: at,
    createdAt: at,
    data: {
      from: direction === 'inbound' ? patientPhone : PRACTICE_PHONE,
      to: direction === 'inbound' ? PRACTICE_PHONE : patientPhone,
      text: body,
      direction,
      deliveryStatus: direction === 'inbound' ? 'RECEIVED' : 'DELIVERED',
      failureReason: null,
      conversationId: `c-${patientPhone}`,
      practicePhoneNumber: PRACTICE_PHONE,
      patientPhoneNumber: patientPhone,
      carrierMessageIds: [],
      sentBy: null,
      scheduledEventId: null,
      notificationId: null,
      timestamp: at,
    },
    patientId: null,
    hidden: false,
    files: [],
    author: { userId: 'u-1', name: 'Front desk' },
    onBehalfOf: null,
    noteVersion: 1,
  } as unknown as Note;
}

/** A conversation item as written before lastInbound was kept: unread, its last message the practice's. */
function olderConversation(
  patientPhone: string,
  last: { id: string; direction: 'inbound' | 'outbound'; text: string; at: string },
  readStatus: 'UNREAD' | 'READ' = 'UNREAD',
): ConversationRecord {
  return {
    conversationId: `c-${patientPhone}`,
    patientPhoneNumber: patientPhone,
    practicePhoneNumber: PRACTICE_PHONE,
    patientIds: [],
    readStatus,
    archived: false,
    unreadCount: readStatus === 'UNREAD' ? 1 : 0,
    lastMessage: {
      messageId: last.id,
      direction: last.direction,
      text: last.text,
      timestamp: last.at,
      deliveryStatus: last.direction === 'inbound' ? 'RECEIVED' : 'DELIVERED',
    },
    participants: [],
    createdAt: '2026-11-01T15:00:00.000Z',
    updatedAt: last.at,
    lastReadAt: '2026-11-01T15:00:00.000Z',
    patientNames: [],
  } as unknown as ConversationRecord;
}

describe('backfillLastInbound', () => {
  it("gives an older unread conversation its patient's latest text as the preview, once", async () => {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId: TEST_PRACTICE, sk: CONVERSATION_COUNTS_KEY, indexed: true } }));
    const asked = '+15035550103';
    await insertSmsNote(TEST_PRACTICE, text('n-1', asked, 'inbound', 'Do I need to come in?', '2026-11-02T15:00:00.000Z'));
    await insertSmsNote(TEST_PRACTICE, text('n-2', asked, 'outbound', 'Your refill was sent to the pharmacy.', '2026-11-02T16:00:00.000Z'));
    const silent = '+15035550104';
    await insertSmsNote(TEST_PRACTICE, text('n-3', silent, 'outbound', 'Welcome to the clinic!', '2026-11-02T16:00:00.000Z'));
    const read = '+15035550105';
    await insertSmsNote(TEST_PRACTICE, text('n-4', read, 'inbound', 'Thanks!', '2026-11-02T14:00:00.000Z'));
    await insertSmsNote(TEST_PRACTICE, text('n-5', read, 'outbound', 'You are welcome.', '2026-11-02T14:30:00.000Z'));
    for (const c of [
      olderConversation(asked, { id: 'n-2', direction: 'outbound', text: 'Your refill was sent to the pharmacy.', at: '2026-11-02T16:00:00.000Z' }),
      olderConversation(silent, { id: 'n-3', direction: 'outbound', text: 'Welcome to the clinic!', at: '2026-11-02T16:00:00.000Z' }),
      olderConversation(read, { id: 'n-5', direction: 'outbound', text: 'You are welcome.', at: '2026-11-02T14:30:00.000Z' }, 'READ'),
    ]) {
      await documentClient().send(new PutCommand({ TableName: tableName(), Item: conversationItem(TEST_PRACTICE, c) }));
    }
    const before = await getConversation(TEST_PRACTICE, `c-${asked}`);
    expect(toConversation(before!, OPT_IN).preview?.text).toBe('Your refill was sent to the pharmacy.');

    expect(await backfillLastInbound(TEST_PRACTICE)).toBe(2);

    const after = await getConversation(TEST_PRACTICE, `c-${asked}`);
    expect(toConversation(after!, OPT_IN).preview).toMatchObject({ messageId: 'n-1', direction: 'inbound', text: 'Do I need to come in?' });
    expect(toConversation(after!, OPT_IN).lastMessage?.text).toBe('Your refill was sent to the pharmacy.');
    const never = await getConversation(TEST_PRACTICE, `c-${silent}`);
    expect(never!.lastInbound).toBeNull();
    expect(toConversation(never!, OPT_IN).preview?.text).toBe('Welcome to the clinic!');
    expect((await getConversation(TEST_PRACTICE, `c-${read}`))!.lastInbound).toBeUndefined();

    // Once per practice: a second run writes nothing, even over an item that lost the field.
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: conversationItem(
          TEST_PRACTICE,
          olderConversation(asked, { id: 'n-2', direction: 'outbound', text: 'Your refill was sent to the pharmacy.', at: '2026-11-02T16:00:00.000Z' }),
        ),
      }),
    );
    expect(await backfillLastInbound(TEST_PRACTICE)).toBe(0);
    const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: TEST_PRACTICE, sk: CONVERSATION_COUNTS_KEY } }));
    expect(marker.Item).toMatchObject({ indexed: true, lastInboundKept: true });
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId: TEST_PRACTICE, sk: CONVERSATION_COUNTS_KEY } }));
  });
});
