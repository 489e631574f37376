import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Note } from '../../../shared/notes/note-schema.js';
import { startTestTable, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { conversationIdFor, getConversation, listSmsNotesByPhone } from '../../data/messaging/messaging-repository.js';
import { restoreText } from './restored-texts.js';

const PRACTICE_PHONE = '+15415550100';
const NOW = new Date('2026-12-01T09:00:00.000Z');

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(async () => {
  await table?.stop();
});

/** A text as the practice import plans it: a signed SMS note with its words, direction and time. */
function imported(noteId: string, direction: 'inbound' | 'outbound', text: string, at: string): Note {
  return {
    noteId,
    noteType: 'SMS',
    status: 'DELIVERED',
    signed: NOW.toISOString(),
    eventTimestamp: at,
    timestamp: NOW.toISOString(),
    createdAt: NOW.toISOString(),
    data: { text, formattedText: `<p>${text}</p>`, direction, timestamp: at },
    patientId: 'pat-restored',
    hidden: false,
    files: [],
    author: direction === 'inbound' ? { userId: 'sms-inbound', name: 'Text message' } : { userId: 'u-front', name: 'Front desk' },
    onBehalfOf: null,
    noteVersion: 1,
    signedBy: null,
  } as unknown as Note;
}

describe('restoreText', () => {
  it('puts texts that come back in any order into their conversation, read, the latest as its last message, each once', async () => {
    const patientPhone = '+15035550177';
    const numbers = { practicePhone: PRACTICE_PHONE, patientPhone };
    // The patient's answer comes back before the question it answers.
    expect(await restoreText(TEST_PRACTICE, imported('n-answer', 'inbound', 'Thursday works.', '2025-03-02T10:00:00.000Z'), numbers, NOW)).toBe(true);
    expect(await restoreText(TEST_PRACTICE, imported('n-ask', 'outbound', 'Can you come in Thursday?', '2025-03-01T10:00:00.000Z'), numbers, NOW)).toBe(true);

    const conversation = await getConversation(TEST_PRACTICE, conversationIdFor(PRACTICE_PHONE, patientPhone));
    expect(conversation).toMatchObject({
      readStatus: 'READ',
      unreadCount: 0,
      updatedAt: '2025-03-02T10:00:00.000Z',
      lastMessage: { messageId: 'n-answer', direction: 'inbound', text: 'Thursday works.' },
    });
    const texts = await listSmsNotesByPhone(patientPhone, { practicePhone: PRACTICE_PHONE, max: 10 });
    expect(texts.map((n) => [n.noteId, n.data.from, n.data.to, n.data.conversationId, n.data.sentBy])).toEqual([
      ['n-answer', patientPhone, PRACTICE_PHONE, conversation!.conversationId, null],
      ['n-ask', PRACTICE_PHONE, patientPhone, conversation!.conversationId, 'u-front'],
    ]);

    // The same text a second time adds nothing.
    expect(await restoreText(TEST_PRACTICE, imported('n-ask', 'outbound', 'Can you come in Thursday?', '2025-03-01T10:00:00.000Z'), numbers, NOW)).toBe(false);
    expect(await listSmsNotesByPhone(patientPhone, { max: 10 })).toHaveLength(2);
    expect((await getConversation(TEST_PRACTICE, conversationIdFor(PRACTICE_PHONE, patientPhone)))?.lastMessage?.messageId).toBe('n-answer');
  });
});
