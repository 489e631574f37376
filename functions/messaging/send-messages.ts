/**
 * The conversation routes that text: opening a conversation and sending in one. They load with the
 * first send a container serves (handler.ts), so reading and marking conversations, the calls the
 * hub polls, do not carry the carrier and attachment code.
 */
import type * as z from '../../shared/zod.js';
import { MESSAGING_MESSAGES, type SendMessageBody, type SendMessageResult, type SmsMessage } from '../../shared/messaging/messaging-schema.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { NotFoundError } from '../lib/errors.js';
import { getPatient } from '../data/patients/patient-repository.js';
import { auditConversation, requireConversation, senderOf, withOptOut } from '../core/messaging/conversations.js';
import { ensureConversation, requirePracticeNumber, sendSms } from '../core/messaging/sms-sending.js';

type SendBody = z.output<typeof SendMessageBody>;

/** POST /v1/messaging/conversations: the pair's conversation, created once. */
export async function createConversation(auth: AuthContext, body: { patientPhoneNumber: string; practicePhoneNumber: string; patientId?: string }) {
  await requirePracticeNumber(auth.practiceId, body.practicePhoneNumber);
  if (body.patientId && !(await getPatient(auth.practiceId, body.patientId))) throw new NotFoundError(MESSAGING_MESSAGES.patientNotFound);
  const { record, created } = await ensureConversation(auth.practiceId, body.practicePhoneNumber, body.patientPhoneNumber);
  await auditConversation(auth, created ? 'create' : 'read', record);
  return { conversation: await withOptOut(auth, record), created };
}

/** POST …/messages { text, files?, from? }: sends from `from` (a practice number) or the conversation's. */
export async function sendMessage(auth: AuthContext, id: string, body: SendBody): Promise<SendMessageResult> {
  // Three reads that do not depend on each other, in one round trip.
  const [c, patient, sender] = await Promise.all([
    requireConversation(auth, id),
    body.patientId ? getPatient(auth.practiceId, body.patientId) : undefined,
    senderOf(auth),
  ]);
  const practicePhone = body.from ?? c.practicePhoneNumber;
  if (body.patientId && !patient) throw new NotFoundError(MESSAGING_MESSAGES.patientNotFound);
  // A text once stored is audited, whether the carrier took it or not (SmsNotSent carries it to the caller).
  const audit = (message: SmsMessage) =>
    writeAudit(auth, { action: 'create', entity: 'sms-message', entityId: message.messageId, ...(message.patientId ? { patientId: message.patientId } : {}) });
  const sent = await sendSms(
    auth.practiceId,
    sender,
    { practicePhone, patientPhone: c.patientPhoneNumber, text: body.text, files: body.files, patientId: body.patientId ?? null },
    new Date(),
    { conversation: c, alongside: audit },
  );
  return { message: sent.message, conversation: sent.conversation };
}
