import { randomUUID } from 'node:crypto';
import { MESSAGING_MESSAGES, smsAttachmentError, type Conversation, type SmsAttachment, type SmsMessage } from '../../../shared/messaging/messaging-schema.js';
import type { Note, NotePerson } from '../../../shared/notes/note-schema.js';
import { nationalDigits, normalizePhone } from '../../../shared/patients/phone.js';
import type { Patient } from '../../../shared/patients/patient-schema.js';
import { s3ObjectsFromEnv, S3ObjectsError } from '../../lib/adapters/s3-objects.js';
import { smsCarrier, SmsSendFailure, type SmsFailureKind } from '../../lib/adapters/sms-carrier.js';
import { ConflictError, HttpError, ValidationError } from '../../lib/errors.js';
import { createNotification } from '../../data/notifications/notification-repository.js';
import { log } from '../../lib/log.js';
import { patientIndex } from '../../data/patients/patient-index-cache.js';
import { getPractice } from '../../data/practices/practice-repository.js';
import { fullName } from '../../../shared/patients/patient-derived.js';
import {
  conversationIdFor,
  getConversation,
  getOptOut,
  getSmsNote,
  insertSmsNote,
  messageFromNote,
  noteStatusOf,
  putConversationIfAbsent,
  recordConversationMessage,
  setConversationPatients,
  setOptOut,
  writeSmsNoteVersion,
  type ConversationRecord,
  type SmsNoteData,
  toConversation,
} from '../../data/messaging/messaging-repository.js';

/** The practice's own numbers: its phone and the additional ones (spec shell §2.10 From selector). */
export async function practiceNumbers(practiceId: string): Promise<string[]> {
  const practice = await getPractice(practiceId);
  const numbers = [practice?.phoneNumber, ...(practice?.additionalPhoneNumbers ?? []).map((a) => a.phoneNumber)]
    .map((n) => (n ? normalizePhone(n) : null))
    .filter((n): n is string => !!n);
  return [...new Set(numbers)];
}

export async function requirePracticeNumber(practiceId: string, phone: string): Promise<void> {
  const numbers = await practiceNumbers(practiceId);
  if (numbers.length === 0) throw new ValidationError(MESSAGING_MESSAGES.noPracticeNumber, { from: MESSAGING_MESSAGES.noPracticeNumber });
  if (!numbers.includes(phone)) throw new ValidationError(MESSAGING_MESSAGES.notPracticeNumber, { from: MESSAGING_MESSAGES.notPracticeNumber });
}

/**
 * Active patients with this phone among theirs (several may share one, e.g. a family's home line),
 * from the patients' in-memory index (one GetItem on a warm instance, as the patient search).
 */
export async function patientsWithPhone(practiceId: string, phone: string): Promise<Patient[]> {
  const digits = nationalDigits(phone);
  if (!digits) return [];
  const { entries } = await patientIndex(practiceId, 'active');
  return entries.filter((e) => e.phoneTargets.includes(digits)).map((e) => e.patient);
}

interface FoundConversation {
  conversationId: string;
  existing: ConversationRecord | null;
  patients: Patient[];
}

/**
 * What ensureConversation reads, without writing: the pair's conversation (or `known`, the caller's
 * copy, when it is the pair's) and the patients that have the phone.
 */
async function findConversation(practiceId: string, practicePhone: string, patientPhone: string, known?: ConversationRecord): Promise<FoundConversation> {
  const conversationId = conversationIdFor(practicePhone, patientPhone);
  const [existing, patients] = await Promise.all([
    known?.conversationId === conversationId ? known : getConversation(practiceId, conversationId),
    patientsWithPhone(practiceId, patientPhone),
  ]);
  return { conversationId, existing, patients };
}

/** The pair's conversation, created once (the id is derived from the pair). */
export async function ensureConversation(
  practiceId: string,
  practicePhone: string,
  patientPhone: string,
  now = new Date(),
): Promise<{ record: ConversationRecord; created: boolean }> {
  return settleConversation(practiceId, await findConversation(practiceId, practicePhone, patientPhone), practicePhone, patientPhone, now);
}

/** Writes what the found conversation lacks: its patients as they are now, or the conversation itself. */
async function settleConversation(
  practiceId: string,
  { conversationId, existing, patients }: FoundConversation,
  practicePhone: string,
  patientPhone: string,
  now: Date,
): Promise<{ record: ConversationRecord; created: boolean }> {
  if (existing) {
    // A patient who got (or lost) this phone since: the conversation follows the chart.
    const ids = patients.map((p) => p.id);
    if (ids.join() === existing.patientIds.join()) return { record: existing, created: false };
    await setConversationPatients(
      practiceId,
      conversationId,
      ids,
      patients.map((p) => fullName(p)),
    );
    return { record: { ...existing, patientIds: ids, patientNames: patients.map((p) => fullName(p)) }, created: false };
  }
  const at = now.toISOString();
  const record: ConversationRecord = {
    conversationId,
    patientPhoneNumber: patientPhone,
    practicePhoneNumber: practicePhone,
    patientIds: patients.map((p) => p.id),
    patientNames: patients.map((p) => fullName(p)),
    readStatus: 'READ',
    archived: false,
    unreadCount: 0,
    lastMessage: null,
    participants: [],
    createdAt: at,
    updatedAt: at,
    lastReadAt: at,
  };
  const created = await putConversationIfAbsent(practiceId, record);
  return { record: created ? record : ((await getConversation(practiceId, conversationId)) ?? record), created };
}

/** Reads each attachment's stored size and type: what the browser claimed is not trusted. */
export async function checkedAttachments(files: readonly SmsAttachment[]): Promise<SmsAttachment[]> {
  if (files.length === 0) return [];
  const bucket = process.env.FILES_BUCKET;
  if (!bucket) throw new ValidationError(MESSAGING_MESSAGES.attachmentMissing);
  const s3 = s3ObjectsFromEnv();
  const out: SmsAttachment[] = [];
  for (const f of files) {
    let head: { size: number; contentType: string };
    try {
      head = await s3.headObject({ bucket, key: f.key });
    } catch (error) {
      if (error instanceof S3ObjectsError && (error.status === 404 || error.status === 403))
        throw new ValidationError(MESSAGING_MESSAGES.attachmentMissing, { files: MESSAGING_MESSAGES.attachmentMissing });
      throw error;
    }
    const checked = { ...f, size: head.size, contentType: head.contentType || f.contentType };
    const problem = smsAttachmentError(checked);
    if (problem) throw new ValidationError(problem, { files: problem });
    out.push(checked);
  }
  return out;
}

const FAILURE_REASON: Record<SmsFailureKind, string> = {
  'opted-out': MESSAGING_MESSAGES.optedOut,
  rejected: MESSAGING_MESSAGES.carrierRejected,
  throttled: MESSAGING_MESSAGES.carrierUnavailable,
  unavailable: MESSAGING_MESSAGES.carrierUnavailable,
  'not-configured': MESSAGING_MESSAGES.carrierUnavailable,
};

/**
 * A send the carrier did not take. Answered 422 (never 5xx): the text is kept as FAILED with why,
 * the spec's toast text leads, and the kept message comes back so the chat can show it.
 */
export class SmsNotSent extends HttpError {
  constructor(
    readonly kind: SmsFailureKind,
    readonly failedMessage: SmsMessage,
    readonly conversation: Conversation,
  ) {
    super(422, `${MESSAGING_MESSAGES.sendFailed} ${FAILURE_REASON[kind]}`, { reason: kind, failedMessage, conversation });
  }
}

export interface SendInput {
  practicePhone: string;
  patientPhone: string;
  text: string;
  files: SmsAttachment[];
  patientId?: string | null;
  /** A deterministic id (a scheduled event's) makes the note once however often the caller runs. */
  noteId?: string;
  scheduledEventId?: string | null;
}

export interface SendOptions {
  /** The conversation as the caller just read it: not read again when it is the pair's. */
  conversation?: ConversationRecord;
  /**
   * A write of the caller's (its audit entry) that goes out with the send's last one, once the text
   * is stored, whether the carrier took it or not.
   */
  alongside?: (message: SmsMessage) => Promise<unknown>;
}

/** Every read settles before the first refusal is thrown, so which one a caller hears does not depend on timing. */
async function inOrder<T extends readonly unknown[]>(reads: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(reads);
  for (const r of settled) if (r.status === 'rejected') throw r.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

export interface SendResult {
  message: SmsMessage;
  conversation: Conversation;
  note: Note;
  /** False when the note already existed (a second run of the same scheduled send). */
  sentNow: boolean;
}

/**
 * Texts a patient phone from a practice number: the SMS note is written first (SENDING, signed by
 * the sender), then handed to the carrier; it becomes SENT, or FAILED with the reason, and is kept
 * either way. Delivery receipts later make it DELIVERED or FAILED.
 */
export async function sendSms(practiceId: string, sender: NotePerson, input: SendInput, now = new Date(), options: SendOptions = {}): Promise<SendResult> {
  // The checks and the conversation's reads do not depend on each other; nothing is written until all pass.
  const [, checked, found] = await inOrder<[void, SmsAttachment[], FoundConversation]>([
    requirePracticeNumber(practiceId, input.practicePhone),
    checkedAttachments(input.files),
    findConversation(practiceId, input.practicePhone, input.patientPhone, options.conversation),
  ]);
  const { record } = await settleConversation(practiceId, found, input.practicePhone, input.patientPhone, now);
  const patientId = input.patientId ?? (record.patientIds.length === 1 ? record.patientIds[0]! : null);
  const at = now.toISOString();
  const noteId = input.noteId ?? `sms_${randomUUID()}`;
  // Files picked from the practice drive are copied into the text's folder (the module loads only then).
  const files = checked.some((f) => f.key.startsWith('protected/public/'))
    ? await (
        await import('./drive-attachments.js')
      ).copyDriveAttachments(checked, patientId ? `patients/${patientId}/sms` : `sms/${record.conversationId}`, noteId)
    : checked;
  const data: SmsNoteData = {
    from: input.practicePhone,
    to: input.patientPhone,
    text: input.text,
    direction: 'outbound',
    deliveryStatus: 'SENDING',
    failureReason: null,
    conversationId: record.conversationId,
    practicePhoneNumber: input.practicePhone,
    patientPhoneNumber: input.patientPhone,
    carrierMessageIds: [],
    sentBy: sender.userId,
    scheduledEventId: input.scheduledEventId ?? null,
    notificationId: null,
    timestamp: at,
  };
  const note: Note = {
    noteId,
    noteType: 'SMS',
    status: noteStatusOf('SENDING'),
    signed: at,
    signedBy: sender,
    eventTimestamp: at,
    timestamp: at,
    createdAt: at,
    data,
    patientId,
    hidden: false,
    files: files.map((f) => ({ key: f.key, name: f.name, contentType: f.contentType, size: f.size })),
    author: sender,
    onBehalfOf: null,
    noteVersion: 1,
  };
  if (!(await insertSmsNote(practiceId, note))) {
    const existing = (await getSmsNote(practiceId, noteId))!;
    const conv = (await getConversation(practiceId, record.conversationId)) ?? record;
    const message = messageFromNote(existing, conv.lastReadAt);
    const [optOut] = await Promise.all([getOptOut(input.patientPhone, practiceId), options.alongside?.(message)]);
    return { message, conversation: toConversation(conv, optOut), note: existing, sentNow: false };
  }

  let outcome: Partial<SmsNoteData>;
  let failure: SmsSendFailure | undefined;
  try {
    const bucket = process.env.FILES_BUCKET ?? '';
    const sent = await smsCarrier().send({
      from: input.practicePhone,
      to: input.patientPhone,
      text: input.text,
      media: files.map((f) => ({ bucket, key: f.key })),
      context: { noteId, practiceId },
    });
    outcome = { deliveryStatus: 'SENT', carrierMessageIds: sent.messageIds };
  } catch (error) {
    failure = error instanceof SmsSendFailure ? error : new SmsSendFailure('unavailable', (error as Error)?.name ?? 'Error');
    log.warn('sms send failed', { noteId, kind: failure.kind, code: failure.code });
    // The carrier's opt-out list is the truth: a phone it refuses as opted out shows as such from now on.
    if (failure.kind === 'opted-out' && !(await getOptOut(input.patientPhone, practiceId)).optedOut)
      await setOptOut(practiceId, input.patientPhone, true, 'STOP', at);
    outcome = { deliveryStatus: 'FAILED', failureReason: FAILURE_REASON[failure.kind] };
  }
  // A receipt may have moved the note on already; then its outcome stands.
  const saved = (await writeSmsNoteVersion(practiceId, note, outcome, new Date())) ?? (await getSmsNote(practiceId, noteId)) ?? note;
  const message = messageFromNote(saved, record.lastReadAt);
  const [conv, optOut] = await Promise.all([
    recordConversationMessage(practiceId, record.conversationId, message, false),
    getOptOut(input.patientPhone, practiceId),
  ]);
  const conversation = toConversation(conv ?? record, optOut);
  await Promise.all([failure ? undefined : announceSent(practiceId, sender.userId, message, record.patientIds, now), options.alongside?.(message)]);
  if (failure) throw new SmsNotSent(failure.kind, message, conversation);
  return { message, conversation, note: saved, sentNow: true };
}

/**
 * A text that went out is in the live feed too, as a READ SMS notification of its conversation
 * (spec shell §4: sending makes the new notification the open one): every open chat of the pair,
 * a scheduled text's included, sees it without polling, and no unread badge counts it.
 */
async function announceSent(practiceId: string, senderId: string, m: SmsMessage, patients: readonly string[], now: Date): Promise<void> {
  try {
    await createNotification(
      practiceId,
      {
        notificationId: `sms-out-${m.noteId}`,
        notificationType: 'SMS',
        notificationStatus: 'READ',
        sourceId: m.conversationId,
        relatedTo: m.noteId,
        patientId: m.patientId,
        author: senderId,
        text: m.text.slice(0, 5000),
        data: {
          from: m.from,
          to: m.to,
          timestamp: m.timestamp,
          patients: [...patients],
          files: m.attachments.map((f) => f.key),
          conversationId: m.conversationId,
          noteId: m.noteId,
          messageId: m.messageId,
          direction: 'outbound',
          ...(m.scheduledEventId ? { scheduledEventId: m.scheduledEventId } : {}),
        },
      },
      { userId: senderId },
      now,
    );
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
}
