import { describe, expect, it } from 'vitest';
import { Note } from '../../../shared/notes/note-schema.js';
import { SmsNoteData } from '../../../shared/messaging/messaging-schema.js';
import { parseItem, parseStored, withDefaults, withoutKeys } from './item.js';

const stored = {
  practiceId: 'prc_1',
  sk: 'NOTE#n1',
  entityType: 'NOTE',
  gsi1pk: 'NOTES#p1',
  gsi1sk: '2026-01-01T00:00:00.000Z#n1',
  noteId: 'n1',
  noteType: 'NOTE',
  status: 'DRAFT',
  signed: null,
  eventTimestamp: '2026-01-01T00:00:00.000Z',
  timestamp: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  data: { text: 'Patient reports chest pain' },
  patientId: 'p1',
  hidden: false,
  files: [],
  author: { userId: 'u1', name: 'Dr. Lee' },
  onBehalfOf: null,
  noteVersion: 1,
};

describe('stored items', () => {
  it('reads an item as its entity, without the table and index keys', () => {
    const note = parseItem('note', Note, stored);
    expect(note.noteId).toBe('n1');
    expect(withoutKeys(stored)).not.toHaveProperty('practiceId');
    expect(note).not.toHaveProperty('sk');
    expect(note).not.toHaveProperty('gsi1pk');
  });

  it('refuses an item that does not fit, naming the entity, its key and the fields but never their values', () => {
    const broken = { ...stored, status: 'Patient reports chest pain', noteVersion: 'one' };
    let message = '';
    try {
      parseItem('note', Note, broken);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('Stored note item NOTE#n1 does not fit its schema: status, noteVersion');
    expect(message).not.toContain('chest pain');
  });

  it('reads a text stored before its delivery fields were kept with those fields empty', () => {
    const d = parseStored(
      SmsNoteData,
      {
        from: '+15550000001',
        to: '+15550000002',
        direction: 'inbound',
        deliveryStatus: 'RECEIVED',
        conversationId: 'c1',
        practicePhoneNumber: '+15550000002',
        patientPhoneNumber: '+15550000001',
        timestamp: '2026-01-01T00:00:00.000Z',
      },
      'text',
    );
    expect(d).toMatchObject({ text: '', failureReason: null, sentBy: null, scheduledEventId: null, notificationId: null, carrierMessageIds: [] });
  });

  it('reads an attribute an older item lacks, or holds as null, as its default, and keeps the ones it has', () => {
    expect(withDefaults({ sk: 'CALL#c1', caller: null, status: 'READ' }, { caller: '', recipient: '', status: 'UNREAD' })).toEqual({
      sk: 'CALL#c1',
      caller: '',
      recipient: '',
      status: 'READ',
    });
  });
});
