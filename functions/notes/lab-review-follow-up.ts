/**
 * The follow-up of a lab sign-off (Results to review, issue 40): a task and/or a text to the
 * patient, made in the same request as "Reviewed". Loaded only by a sign-off that asks for one, so
 * the task and messaging code stays off the lab routes' first load.
 *
 * Everything that can be refused is checked before the sign-off is written (a clear 4xx, nothing
 * written); the text goes out after it, so a carrier that refuses the text (an opted-out phone)
 * never undoes the sign-off, and the text is kept both on the review and as a FAILED message.
 */
import { randomUUID } from 'node:crypto';
import { LAB_REVIEW_MESSAGES, type LabReview, type LabReviewBody, type LabReviewFollowUpMessage } from '../../shared/labs/lab-review.js';
import { MESSAGING_MESSAGES } from '../../shared/messaging/messaging-constants.js';
import { primaryPhone } from '../../shared/patients/patient-derived.js';
import { normalizePhone } from '../../shared/patients/phone.js';
import { TASK_MESSAGES, type TaskCreateInput } from '../../shared/tasks/task-schema.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { HttpError, ValidationError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import { senderOf } from '../core/messaging/conversations.js';
import { practiceNumbers, requirePracticeNumber, sendSms, SmsNotSent } from '../core/messaging/sms-sending.js';
import { createTask } from '../core/tasks/task-use-cases.js';
import { getPatient } from '../data/patients/patient-repository.js';
import { getUser } from '../data/users/user-repository.js';

export interface FollowUpPlan {
  task?: { ident: string; input: TaskCreateInput };
  message?: { text: string; to: string; from: string };
}

/** Checks the follow-up before anything is written; the refusals are the tasks' and messaging's own words. */
export async function planFollowUp(auth: AuthContext, review: LabReview, body: LabReviewBody): Promise<FollowUpPlan> {
  const plan: FollowUpPlan = {};
  if (body.followUpTask) {
    const assigned = body.followUpTask.assigned ?? auth.userId;
    if (assigned !== auth.userId) {
      const user = await getUser(auth.practiceId, assigned);
      if (!user || user.userStatus === 'deleted')
        throw new ValidationError(TASK_MESSAGES.assigneeUnknown, { 'followUpTask.assigned': TASK_MESSAGES.assigneeUnknown });
    }
    plan.task = {
      ident: randomUUID(),
      input: {
        text: body.followUpTask.text,
        assigned,
        dueOn: body.followUpTask.dueOn ?? null,
        urgent: body.followUpTask.urgent ?? false,
        patientId: review.patientId || null,
        noteDataLinks: [{ interactionIdent: review.noteId }],
      },
    };
  }
  if (body.followUpMessage) {
    if (!review.patientId) throw new ValidationError(LAB_REVIEW_MESSAGES.noPatientForMessage, { followUpMessage: LAB_REVIEW_MESSAGES.noPatientForMessage });
    let to = body.followUpMessage.to;
    if (!to) {
      const patient = await getPatient(auth.practiceId, review.patientId);
      const phone = patient ? primaryPhone(patient) : undefined;
      to = phone ? (normalizePhone(phone) ?? undefined) : undefined;
    }
    if (!to) throw new ValidationError(LAB_REVIEW_MESSAGES.noPatientPhone, { 'followUpMessage.to': LAB_REVIEW_MESSAGES.noPatientPhone });
    let from = body.followUpMessage.from;
    if (from) await requirePracticeNumber(auth.practiceId, from);
    else from = (await practiceNumbers(auth.practiceId))[0];
    if (!from) throw new ValidationError(MESSAGING_MESSAGES.noPracticeNumber, { 'followUpMessage.from': MESSAGING_MESSAGES.noPracticeNumber });
    plan.message = { text: body.followUpMessage.text, to, from };
  }
  return plan;
}

/** The task, with the id the sign-off already names. */
export async function makeFollowUpTask(auth: AuthContext, task: NonNullable<FollowUpPlan['task']>, now: Date): Promise<void> {
  await createTask(auth, task.input, now, task.ident);
}

/**
 * The text, through the same send path as the conversation screen: the same SMS note, carrier,
 * opt-out handling and access-history entry. A refusal comes back as FAILED with the reason the
 * conversation screen would give, never as an error.
 */
export async function sendFollowUpMessage(
  auth: AuthContext,
  review: LabReview,
  message: NonNullable<FollowUpPlan['message']>,
  now: Date,
): Promise<LabReviewFollowUpMessage> {
  const base = { text: message.text, to: message.to, from: message.from };
  try {
    const sent = await sendSms(
      auth.practiceId,
      await senderOf(auth),
      { practicePhone: message.from, patientPhone: message.to, text: message.text, files: [], patientId: review.patientId },
      now,
    );
    await writeAudit(auth, { action: 'create', entity: 'sms-message', entityId: sent.message.messageId, patientId: review.patientId });
    return { ...base, status: 'SENT', noteId: sent.message.noteId, conversationId: sent.message.conversationId };
  } catch (error) {
    if (error instanceof SmsNotSent) {
      await writeAudit(auth, { action: 'create', entity: 'sms-message', entityId: error.failedMessage.messageId, patientId: review.patientId });
      return { ...base, status: 'FAILED', noteId: error.failedMessage.noteId, conversationId: error.failedMessage.conversationId, error: error.message };
    }
    if (error instanceof HttpError && error.statusCode < 500) return { ...base, status: 'FAILED', error: `${MESSAGING_MESSAGES.sendFailed} ${error.message}` };
    log.warn('lab review follow-up text not sent', { noteId: review.noteId, error: error instanceof Error ? error.message : String(error) });
    return { ...base, status: 'FAILED', error: `${MESSAGING_MESSAGES.sendFailed} ${MESSAGING_MESSAGES.carrierUnavailable}` };
  }
}
