import { optKeywordAction } from '../../shared/messaging/messaging-schema.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { normalizePhone } from '../../shared/patients/phone.js';
import { receiptOutcome, type DeliveryReceipt, type InboundText } from '../lib/adapters/sms-carrier.js';
import { ConflictError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import { createNotification } from '../data/notifications/notification-repository.js';
import {
  getSmsNote,
  insertSmsNote,
  messageFromNote,
  noteStatusOf,
  recordConversationMessage,
  setOptOut,
  updateLastMessageStatus,
  writeSmsNoteVersion,
  smsDataOf,
  type SmsNoteData,
} from '../data/messaging/messaging-repository.js';
import { ensureConversation, practiceNumbers } from '../core/messaging/sms-sending.js';

/** Who wrote an inbound text's note: the patient phone, not a user of the practice. */
const INBOUND_AUTHOR = { userId: 'sms-inbound', name: 'Text message' };
/** Actor of the SMS notification an inbound text creates. */
const SYSTEM_ACTOR = { userId: 'sms-inbound' };

const safeId = (s: string) => s.replace(/[^A-Za-z0-9_.:-]/g, '-').slice(0, 100);
export const inboundNoteId = (inboundMessageId: string) => `smsin_${safeId(inboundMessageId)}`;
export const inboundNotificationId = (inboundMessageId: string) => `sms-${safeId(inboundMessageId)}`;

/**
 * An inbound text (the SNS two-way message): stored as an SMS note in the pair's conversation and
 * announced by an UNREAD SMS notification written to the table (the stream worker publishes it).
 * STOP and its synonyms opt the phone out, START opts it back in, as the carrier does. Runs once
 * per inboundMessageId however often SNS delivers it.
 */
export async function receiveText(practiceId: string, m: InboundText, now = new Date()): Promise<'stored' | 'duplicate' | 'ignored'> {
  const patientPhone = normalizePhone(m.originationNumber);
  const practicePhone = normalizePhone(m.destinationNumber);
  if (!patientPhone || !practicePhone || !(await practiceNumbers(practiceId)).includes(practicePhone)) {
    log.warn('inbound text for a number that is not the practice’s', { inboundMessageId: m.inboundMessageId });
    return 'ignored';
  }
  const at = now.toISOString();
  const keyword = optKeywordAction(m.messageBody);
  if (keyword) await setOptOut(practiceId, patientPhone, keyword === 'opt-out', m.messageBody.trim().toUpperCase(), at);

  const { record } = await ensureConversation(practiceId, practicePhone, patientPhone, now);
  const patientId = record.patientIds.length === 1 ? record.patientIds[0]! : null;
  const noteId = inboundNoteId(m.inboundMessageId);
  const notificationId = inboundNotificationId(m.inboundMessageId);
  const data: SmsNoteData = {
    from: patientPhone,
    to: practicePhone,
    text: m.messageBody,
    direction: 'inbound',
    deliveryStatus: 'RECEIVED',
    failureReason: null,
    conversationId: record.conversationId,
    practicePhoneNumber: practicePhone,
    patientPhoneNumber: patientPhone,
    carrierMessageIds: [m.inboundMessageId],
    sentBy: null,
    scheduledEventId: null,
    notificationId,
    timestamp: at,
  };
  const note: Note = {
    noteId,
    noteType: 'SMS',
    status: noteStatusOf('RECEIVED'),
    signed: null,
    eventTimestamp: at,
    timestamp: at,
    createdAt: at,
    data,
    patientId,
    hidden: false,
    files: [],
    author: INBOUND_AUTHOR,
    onBehalfOf: null,
    noteVersion: 1,
  };
  const fresh = await insertSmsNote(practiceId, note);
  if (fresh) await recordConversationMessage(practiceId, record.conversationId, messageFromNote(note, record.lastReadAt), true);
  // The notification is written even for a redelivery whose first run stopped before it.
  try {
    await createNotification(
      practiceId,
      {
        notificationId,
        notificationType: 'SMS',
        notificationStatus: 'UNREAD',
        sourceId: record.conversationId,
        relatedTo: noteId,
        patientId,
        text: m.messageBody.slice(0, 5000),
        data: {
          from: patientPhone,
          to: practicePhone,
          timestamp: at,
          patients: record.patientIds,
          files: [],
          conversationId: record.conversationId,
          noteId,
          messageId: noteId,
        },
      },
      SYSTEM_ACTOR,
      now,
    );
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return 'duplicate';
  }
  return fresh ? 'stored' : 'duplicate';
}

/**
 * A delivery receipt: the text's note becomes DELIVERED or FAILED. Receipts name the note by the
 * Context every send carries; the first outcome stands, a later receipt never undoes it.
 */
export async function applyReceipt(practiceId: string, r: DeliveryReceipt, now = new Date()): Promise<'applied' | 'unchanged' | 'unknown'> {
  const outcome = receiptOutcome(r);
  const noteId = r.context?.noteId;
  if (!outcome || !noteId || (r.context?.practiceId && r.context.practiceId !== practiceId)) return 'unknown';
  for (let attempt = 0; attempt < 5; attempt++) {
    const note = await getSmsNote(practiceId, noteId);
    if (!note) return 'unknown';
    const d = smsDataOf(note);
    // The first outcome is final: receipts may arrive out of order, and a text is delivered or not.
    if (d.direction !== 'outbound' || d.deliveryStatus === 'DELIVERED' || d.deliveryStatus === 'FAILED') return 'unchanged';
    const saved = await writeSmsNoteVersion(
      practiceId,
      note,
      {
        deliveryStatus: outcome,
        failureReason: outcome === 'FAILED' ? (r.messageStatusDescription ?? r.messageStatus) || 'The carrier could not deliver the text' : null,
      },
      now,
    );
    if (saved) {
      await updateLastMessageStatus(practiceId, d.conversationId, noteId, outcome);
      return 'applied';
    }
  }
  throw new Error('SMS note kept changing while a receipt was applied');
}
