/**
 * Results to review (issue 40): each LAB note with results has one review item on its ordering
 * provider's list until they sign it off. Loaded with the lab routes and the lab deliveries, never
 * on the notes group's cold start.
 */
import {
  LAB_REVIEW_MESSAGES,
  labReviewFlags,
  labReviewSeverity,
  type LabReview,
  type LabReviewBody,
  type LabReviewList,
  type LabReviewSettings,
  type LabReviewStatus,
} from '../../shared/labs/lab-review.js';
import type { LabNoteData } from '../../shared/labs/lab-schema.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { can } from '../../shared/permissions/permissions.js';
import { writeAudit, writeAuditForPatients } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import {
  getLabReview,
  getLabReviewSettings,
  putLabReviewAtVersion,
  putLabReviewSettingsItem,
  queryLabReviews,
  setLabReviewFollowUpMessage,
} from '../data/labs/lab-reviews.js';
import { personOf } from '../core/notes/note-common.js';

export const LAB_CRITICAL_ESCALATION_JOB_KIND = 'lab-critical-escalation';

/** The panels the lab reported, by name, else what was ordered. */
export function reportedTests(data: LabNoteData): string[] {
  const panels = [...new Set((data.results ?? []).map((r) => r.panel).filter((p): p is string => !!p))];
  return panels.length ? panels : (data.actions ?? []).map((a) => a.display);
}

/**
 * The review item the note's results make, for the lab delivery's transaction: pending again
 * (a later report is new to the provider) but still waiting since its first unreviewed result.
 */
export function pendingReviewFor(note: Note, patientName: string, previous: LabReview | null, at: string): LabReview {
  const data = note.data as LabNoteData;
  const flags = labReviewFlags(data.results ?? []);
  const stillPending = previous?.status === 'PENDING';
  return {
    noteId: note.noteId,
    patientId: note.patientId ?? '',
    patientName,
    orderingProviderId: data.orderingProvider?.userId ?? note.author.userId,
    orderingProviderName: data.orderingProvider?.name ?? note.author.name ?? '',
    tests: reportedTests(data),
    severity: labReviewSeverity(flags),
    flags,
    status: 'PENDING',
    waitingSince: stillPending ? previous.waitingSince : at,
    receivedAt: at,
    ...(stillPending && previous.escalatedAt ? { escalatedAt: previous.escalatedAt } : {}),
    ...(stillPending && previous.escalatedTaskId ? { escalatedTaskId: previous.escalatedTaskId } : {}),
    version: (previous?.version ?? 0) + 1,
  };
}

const mayReview = (auth: AuthContext) => can({ role: auth.role, userId: auth.userId }, 'lab.review');

/** GET /v1/notes/labs/reviews: the caller's results, pending ones critical and abnormal first, oldest first within each. */
export async function listLabReviews(auth: AuthContext, status: LabReviewStatus = 'PENDING', limit = 100): Promise<LabReviewList> {
  if (!mayReview(auth)) throw new ForbiddenError(LAB_REVIEW_MESSAGES.rolesOnly);
  const reviews = await queryLabReviews(auth.userId, status, limit);
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'lab-review' },
    reviews.map((r) => r.patientId),
  );
  return { reviews };
}

async function requireReviewable(auth: AuthContext, noteId: string): Promise<LabReview> {
  if (!mayReview(auth)) throw new ForbiddenError(LAB_REVIEW_MESSAGES.rolesOnly);
  const review = await getLabReview(auth.practiceId, noteId);
  if (!review) throw new NotFoundError(LAB_REVIEW_MESSAGES.notFound);
  if (!can({ role: auth.role, userId: auth.userId }, 'lab.review', { assigned: review.orderingProviderId }))
    throw new ForbiddenError(LAB_REVIEW_MESSAGES.notYours);
  return review;
}

/** GET /v1/notes/labs/reviews/{noteId}. */
export async function getLabReviewFor(auth: AuthContext, noteId: string): Promise<LabReview> {
  const review = await requireReviewable(auth, noteId);
  await writeAudit(auth, { action: 'read', entity: 'lab-review', entityId: noteId, ...(review.patientId ? { patientId: review.patientId } : {}) });
  return review;
}

/**
 * POST /v1/notes/labs/reviews/{noteId}: the ordering provider (or an admin) signs the result off,
 * with an optional comment and, in the same step, a follow-up task and/or a text to the patient;
 * who and when are recorded and audited. Results that arrived after the version the reviewer saw
 * are refused (409). A follow-up that cannot be made is refused before anything is written; a text
 * the carrier refuses leaves the sign-off standing and comes back as FAILED with its reason.
 */
export async function reviewLabResult(auth: AuthContext, noteId: string, body: LabReviewBody, now = new Date()): Promise<LabReview> {
  const review = await requireReviewable(auth, noteId);
  if (review.status === 'REVIEWED')
    throw new ConflictError(LAB_REVIEW_MESSAGES.alreadyReviewed, { reviewedBy: review.reviewedBy?.name ?? '', reviewedAt: review.reviewedAt ?? '' });
  if (review.version !== body.version) throw new ConflictError(LAB_REVIEW_MESSAGES.changed, { version: review.version });
  const followUp = body.followUpTask || body.followUpMessage ? await import('./lab-review-follow-up.js') : null;
  const plan = followUp ? await followUp.planFollowUp(auth, review, body) : {};
  const reviewer = await personOf(auth);
  const taskId = plan.task?.ident ?? body.followUpTaskId;
  const next: LabReview = {
    ...review,
    status: 'REVIEWED',
    reviewedAt: now.toISOString(),
    reviewedBy: { userId: reviewer.userId, name: reviewer.name },
    ...(body.comment ? { comment: body.comment } : {}),
    ...(taskId ? { followUpTaskId: taskId } : {}),
    version: review.version + 1,
  };
  if (!(await putLabReviewAtVersion(auth.practiceId, next, review.version))) throw new ConflictError(LAB_REVIEW_MESSAGES.changed);
  await writeAudit(auth, { action: 'update', entity: 'lab-review', entityId: noteId, ...(review.patientId ? { patientId: review.patientId } : {}) });
  if (review.severity === 'critical' && !review.escalatedTaskId) await cancelEscalation(noteId);
  if (followUp && plan.task) await followUp.makeFollowUpTask(auth, plan.task, now);
  if (followUp && plan.message) {
    const sent = await followUp.sendFollowUpMessage(auth, review, plan.message, now);
    // Kept on the review, sent or not: the reviewer's words are never lost to a refused text.
    await setLabReviewFollowUpMessage(auth.practiceId, noteId, sent);
    next.followUpMessage = sent;
  }
  return next;
}

/** POST /v1/notes/labs/review-settings (admins). */
export async function putLabReviewSettings(auth: AuthContext, input: LabReviewSettings): Promise<LabReviewSettings> {
  if (!can({ role: auth.role, userId: auth.userId }, 'practice.settings.change')) throw new ForbiddenError(LAB_REVIEW_MESSAGES.adminOnly);
  await putLabReviewSettingsItem(auth.practiceId, input, auth.userId);
  await writeAudit(auth, { action: 'update', entity: 'lab-review-settings' });
  return input;
}

/**
 * How long one setting minute lasts. Deployed it is a minute; LAB_REVIEW_MINUTE_MS shortens it
 * for tests, so an escalation "after 2 minutes" runs in seconds with the same code.
 */
const minuteMs = (): number => {
  const ms = Number(process.env.LAB_REVIEW_MINUTE_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 60_000;
};

const escalationName = async (noteId: string) => (await import('../lib/adapters/scheduler.js')).scheduleName(LAB_CRITICAL_ESCALATION_JOB_KIND, noteId);

/** A critical value arrived unreviewed: the schedule target checks it again after the practice's time. */
export async function scheduleEscalation(practiceId: string, review: LabReview, receivedAt: Date): Promise<Date> {
  const { criticalEscalationMinutes } = await getLabReviewSettings(practiceId);
  // Scheduler's at() counts whole seconds: rounded up, so the task never comes before the set time.
  const at = new Date(Math.ceil((receivedAt.getTime() + criticalEscalationMinutes * minuteMs()) / 1000) * 1000);
  const { scheduleAdapterFromEnv } = await import('../lib/adapters/scheduler.js');
  // One schedule per note: a later report of the same order keeps the first critical value's deadline.
  await scheduleAdapterFromEnv().createAt({
    name: await escalationName(review.noteId),
    at,
    payload: { kind: LAB_CRITICAL_ESCALATION_JOB_KIND, practiceId, noteId: review.noteId },
  });
  return at;
}

async function cancelEscalation(noteId: string): Promise<void> {
  try {
    const { scheduleAdapterFromEnv } = await import('../lib/adapters/scheduler.js');
    await scheduleAdapterFromEnv().delete(await escalationName(noteId));
  } catch (error) {
    // The job finds the result reviewed and does nothing; the sign-off stands.
    log.warn('lab escalation schedule not deleted', { noteId, error: error instanceof Error ? error.message : String(error) });
  }
}
