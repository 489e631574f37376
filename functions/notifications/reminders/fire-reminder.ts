import { ConflictError } from '../../lib/errors.js';
import { log } from '../../lib/log.js';
import { createNotification } from '../../data/notifications/notification-repository.js';
import { getReminder, markFired } from '../../data/reminders/reminder-repository.js';

/** A fire this long before the reminder's due time comes from a superseded schedule. */
const EARLY_TOLERANCE_MS = 60_000;

/** One notification per reminder and due time: the id is the guard against a second delivery. */
export const reminderNotificationId = (reminderId: string, dueAt: string) => `reminder-${reminderId}-${Date.parse(dueAt)}`;

/**
 * The 'reminder' scheduled job: creates the assignee's UNREAD notification (the stream announces it),
 * exactly once however often Scheduler delivers (at least once). Completed, deleted or
 * rescheduled reminders fire nothing.
 */
export async function fireReminder(payload: Record<string, unknown>, now = new Date()): Promise<'fired' | 'already-fired' | 'skipped'> {
  const practiceId = String(payload.practiceId ?? '');
  const reminderId = String(payload.reminderId ?? '');
  if (!practiceId || !reminderId || (process.env.PRACTICE_ID && process.env.PRACTICE_ID !== practiceId)) {
    log.error('reminder job with a foreign or missing practice or reminder', { reminderId: reminderId || null });
    return 'skipped';
  }
  const reminder = await getReminder(practiceId, reminderId);
  if (!reminder || reminder.completionDate || Date.parse(reminder.dueAt) - now.getTime() > EARLY_TOLERANCE_MS) {
    log.info('reminder not due', { reminderId, found: Boolean(reminder) });
    return 'skipped';
  }
  let outcome: 'fired' | 'already-fired' = 'fired';
  try {
    await createNotification(
      practiceId,
      {
        notificationId: reminderNotificationId(reminderId, reminder.dueAt),
        notificationType: 'TASK',
        notificationStatus: 'UNREAD',
        sourceId: reminderId,
        assigned: reminder.assigned,
        author: reminder.createdBy,
        text: reminder.text,
        patientId: reminder.patientId,
        dueOn: reminder.dueAt,
        data: { kind: 'reminder', reminderId, dueAt: reminder.dueAt },
      },
      { userId: reminder.createdBy },
      now,
    );
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    outcome = 'already-fired';
  }
  await markFired(practiceId, reminderId, now.toISOString());
  return outcome;
}
