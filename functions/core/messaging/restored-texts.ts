import type { Note } from '../../../shared/notes/note-schema.js';
import { insertSmsNote, messageFromNote, recordRestoredMessage, type SmsNoteData } from '../../data/messaging/messaging-repository.js';
import { ensureConversation } from './sms-sending.js';

/** The conversation a restored text belongs to: the practice's number and the patient's phone it was exchanged between. */
export interface RestoredTextNumbers {
  practicePhone: string;
  patientPhone: string;
}

/**
 * A text of the practice's own export, written back as the text it was: an SMS note of the pair's
 * conversation, found by the patient's phone, and the conversation (created as read, since the
 * texts are history) showing its latest text. False when a note with this id is already here.
 */
export async function restoreText(practiceId: string, note: Note, numbers: RestoredTextNumbers, now: Date): Promise<boolean> {
  const { record } = await ensureConversation(practiceId, numbers.practicePhone, numbers.patientPhone, now);
  const source = note.data as Record<string, unknown>;
  const inbound = source.direction === 'inbound';
  const data: SmsNoteData = {
    from: inbound ? numbers.patientPhone : numbers.practicePhone,
    to: inbound ? numbers.practicePhone : numbers.patientPhone,
    text: String(source.text ?? ''),
    direction: inbound ? 'inbound' : 'outbound',
    deliveryStatus: inbound ? 'RECEIVED' : 'DELIVERED',
    failureReason: null,
    conversationId: record.conversationId,
    practicePhoneNumber: numbers.practicePhone,
    patientPhoneNumber: numbers.patientPhone,
    carrierMessageIds: [],
    sentBy: inbound ? null : note.author.userId || null,
    scheduledEventId: null,
    notificationId: null,
    timestamp: String(source.timestamp ?? note.eventTimestamp),
  };
  const text: Note = { ...note, data: { ...source, ...data } };
  if (!(await insertSmsNote(practiceId, text))) return false;
  await recordRestoredMessage(practiceId, record.conversationId, messageFromNote(text, record.lastReadAt));
  return true;
}
