/**
 * The 'lab-critical-escalation' job: a critical lab value still unreviewed after the practice's
 * time (Results to review) becomes an urgent task for its ordering provider. Safe to run twice:
 * the result is claimed before the task is made.
 */
import { getLabReview, claimEscalation, recordEscalationTask, getLabReviewSettings } from '../data/labs/lab-reviews.js';
import { HEALTH_GORILLA_PARTNER_ID, LAB_PROVIDER_NAME } from '../../shared/labs/lab-schema.js';
import { TASK_TEXT_MAX } from '../../shared/tasks/task-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { createTask } from '../core/tasks/task-use-cases.js';

export type EscalationOutcome = 'escalated' | 'reviewed' | 'not-critical' | 'already-escalated' | 'gone';

export async function fireLabCriticalEscalation(payload: Record<string, unknown>, now = new Date()): Promise<EscalationOutcome> {
  const practiceId = typeof payload.practiceId === 'string' ? payload.practiceId : '';
  const noteId = typeof payload.noteId === 'string' ? payload.noteId : '';
  if (!practiceId || !noteId) throw new Error('A lab escalation names its practice and note');
  const review = await getLabReview(practiceId, noteId);
  if (!review) return 'gone';
  if (review.status !== 'PENDING') return 'reviewed';
  if (review.severity !== 'critical') return 'not-critical';
  if (review.escalatedAt) return 'already-escalated';
  if (!(await claimEscalation(practiceId, noteId, now.toISOString()))) return 'already-escalated';
  const { criticalEscalationMinutes } = await getLabReviewSettings(practiceId);
  const values = review.flags
    .filter((f) => f.critical)
    .map((f) => `${f.text} ${f.value}`)
    .join(', ');
  const text = `Critical lab result not reviewed after ${criticalEscalationMinutes} min: ${review.patientName}, ${review.tests.join(', ')}: ${values}. Open Results to review and sign it off.`;
  // The lab's delivery started this; the task says so in its author.
  const actor: AuthContext = { practiceId, userId: `partner:${HEALTH_GORILLA_PARTNER_ID}`, email: '', name: LAB_PROVIDER_NAME, role: 'employee', groups: [] };
  const task = await createTask(
    actor,
    {
      text: text.slice(0, TASK_TEXT_MAX),
      assigned: review.orderingProviderId,
      urgent: true,
      patientId: review.patientId || null,
      noteDataLinks: [{ interactionIdent: noteId }],
    },
    now,
  );
  await recordEscalationTask(practiceId, noteId, task.ident);
  return 'escalated';
}
