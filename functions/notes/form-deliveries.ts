import { timingSafeEqual } from 'node:crypto';
import { INTAKEQ_PARTNER_ID } from '../../shared/forms/form-constants.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { PARTNER_MESSAGES } from '../../shared/partners/partner-schema.js';
import { IntakeQClient, isSubmitted, parseIntakeQConfig, toSubmission, type IntakeQIntake } from '../lib/adapters/intakeq.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, DependencyError, NotFoundError, UnauthorizedError, ValidationError } from '../lib/errors.js';
import { createNotification } from '../data/notifications/notification-repository.js';
import { formNoteOfIntake, putFormQuestions } from '../data/forms/form-intakes.js';
import { storedDelivery, writeDeliveryWithNoteVersion } from '../data/notes/delivery-records.js';
import { formDataOf } from '../data/forms/form-note-data.js';

const IntakeQName = 'IntakeQ';
const actor = (practiceId: string): AuthContext => ({
  practiceId,
  userId: `partner:${INTAKEQ_PARTNER_ID}`,
  email: '',
  name: IntakeQName,
  role: 'employee',
  groups: [],
});

/**
 * IntakeQ signs nothing: its webhook URL carries the practice's token (the `webhookToken` of the
 * partner secret), compared in constant time; 401 otherwise.
 */
export function verifyIntakeQToken(webhookToken: string | null | undefined, given: string | undefined): void {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(webhookToken ?? '');
  if (!webhookToken || a.length !== b.length || !timingSafeEqual(a, b)) throw new UnauthorizedError(PARTNER_MESSAGES.badSignature);
}

export interface FormDeliveryOutcome {
  noteId: string | null;
  replayed: boolean;
  ignored?: boolean;
}

/**
 * IntakeQ's 'Intake Submitted' notice: the intake is read back from IntakeQ by its id (the notice's
 * body is never trusted for answers), and the FORM note becomes submitted (DELIVERED) with the
 * submission, in one transaction with the delivery record, so a repeated notice changes nothing.
 * The note's author gets a FORM notification.
 */
export async function applyIntakeSubmitted(
  practiceId: string,
  secret: string | null,
  token: string | undefined,
  body: unknown,
  exchange?: ConstructorParameters<typeof IntakeQClient>[1],
  now = new Date(),
): Promise<FormDeliveryOutcome> {
  const config = parseIntakeQConfig(secret);
  verifyIntakeQToken(config?.webhookToken, token);
  const notice = body as { IntakeId?: unknown; Type?: unknown } | null;
  if (!notice || typeof notice !== 'object' || typeof notice.IntakeId !== 'string' || !/^[A-Za-z0-9-]{1,100}$/.test(notice.IntakeId))
    throw new ValidationError('IntakeId is required', { IntakeId: 'is required' });
  // Other notices (a form started, an appointment) are not about submitted forms.
  if (notice.Type !== 'Intake Submitted') return { noteId: null, replayed: false, ignored: true };
  const intakeId = notice.IntakeId;
  const prior = await storedDelivery(practiceId, INTAKEQ_PARTNER_ID, intakeId);
  if (prior) return { noteId: String(prior.noteId), replayed: true };
  const note = await formNoteOfIntake(practiceId, intakeId);
  if (!note) throw new NotFoundError('No form was sent with this intake id.');
  let intake: IntakeQIntake;
  try {
    intake = await new IntakeQClient(config!, exchange).intake(intakeId);
  } catch {
    throw new DependencyError(502, 'IntakeQ did not return the intake', 'INTAKEQ_INTAKE_FAILED');
  }
  if (String(intake.Id) !== intakeId || (intake.ExternalClientId && intake.ExternalClientId !== note.patientId))
    throw new ValidationError('The intake does not belong to this form');
  if (!isSubmitted(intake.Status)) return { noteId: note.noteId, replayed: false, ignored: true };
  const at = now.toISOString();
  const submission = toSubmission(intake);
  const data = formDataOf(note);
  const next: Note = {
    ...note,
    status: note.status === 'FULFILLED' ? 'FULFILLED' : 'DELIVERED',
    data: {
      ...note.data,
      submissionData: submission,
      dateSubmitted: submission.DateSubmitted ?? at,
      numberOfQuestions: submission.Questions.length,
    } as Note['data'],
    noteVersion: note.noteVersion + 1,
    timestamp: at,
  };
  const write = await writeDeliveryWithNoteVersion(practiceId, INTAKEQ_PARTNER_ID, intakeId, next, note.noteVersion, at);
  if (!write.written) {
    if (write.raced) return { noteId: note.noteId, replayed: true };
    throw new ConflictError('The form note changed while the submission was written; send it again.');
  }
  const questions = submission.Questions.map((q) => ({ id: q.Id, title: q.Text, type: q.QuestionType, subType: q.QuestionSubType ?? null }));
  await putFormQuestions(practiceId, String(submission.QuestionnaireId), questions, at);
  const who = actor(practiceId);
  await writeAudit(who, { action: 'update', entity: 'NOTE', entityId: note.noteId, ...(note.patientId ? { patientId: note.patientId } : {}) });
  await createNotification(
    practiceId,
    {
      notificationType: 'FORM',
      notificationStatus: 'UNREAD',
      sourceId: note.noteId,
      relatedTo: note.noteId,
      assigned: note.author.userId,
      patientId: note.patientId,
      text: `${data.formName} submitted`,
      data: { noteId: note.noteId, patientId: note.patientId, intakeId },
    },
    who,
  );
  return { noteId: note.noteId, replayed: false };
}
