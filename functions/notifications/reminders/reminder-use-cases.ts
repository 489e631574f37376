import { randomUUID } from 'node:crypto';
import {
  REMINDER_MESSAGES,
  type Reminder,
  type ReminderCreateInput,
  type ReminderList,
  type ReminderUpdateInput,
} from '../../../shared/reminders/reminder-schema.js';
import { writeAudit, writeAuditForPatients } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { requirePermission } from '../../lib/http/permissions.js';
import { getUser } from '../../data/users/user-repository.js';
import { deleteReminderItem, getReminder, listRemindersOf, putReminder } from '../../data/reminders/reminder-repository.js';
import { cancelReminderSchedule, scheduleReminder } from './reminder-schedule.js';

/** Scheduler fires to the second; a time this close to now could never be scheduled ahead. */
const MIN_LEAD_MS = 1000;

function futureDueAt(dueAt: string, now: Date): string {
  const iso = new Date(dueAt).toISOString();
  if (Date.parse(iso) < now.getTime() + MIN_LEAD_MS) throw new ValidationError(REMINDER_MESSAGES.dueAtPast, { dueAt: REMINDER_MESSAGES.dueAtPast });
  return iso;
}

async function assertAssignable(auth: AuthContext, userId: string): Promise<void> {
  if (userId === auth.userId) return;
  const user = await getUser(auth.practiceId, userId);
  if (!user || user.userStatus === 'deleted') {
    const message = 'The assigned user is not a member of this practice';
    throw new ValidationError(message, { assigned: message });
  }
}

const audit = (auth: AuthContext, action: 'create' | 'update' | 'delete' | 'list', r?: Reminder, count?: number) =>
  writeAudit(auth, {
    action,
    entity: 'reminder',
    ...(r ? { entityId: r.reminderId } : {}),
    ...(r?.patientId ? { patientId: r.patientId } : {}),
    ...(count !== undefined ? { count } : {}),
  });

/** The caller's reminder, or 404: another user's reminder is answered as if it did not exist. */
async function ownReminder(auth: AuthContext, reminderId: string): Promise<Reminder> {
  const current = await getReminder(auth.practiceId, reminderId);
  if (!current) throw new NotFoundError(REMINDER_MESSAGES.notFound);
  requirePermission(auth, 'reminder.manage', { assigned: current.assigned }, REMINDER_MESSAGES.notFound);
  return current;
}

export async function createReminder(auth: AuthContext, input: ReminderCreateInput, now = new Date()): Promise<Reminder> {
  const assigned = input.assigned ?? auth.userId;
  await assertAssignable(auth, assigned);
  const at = now.toISOString();
  const reminder: Reminder = {
    reminderId: randomUUID(),
    text: input.text,
    dueAt: futureDueAt(input.dueAt, now),
    assigned,
    patientId: input.patientId ?? null,
    completionDate: null,
    firedAt: null,
    createdAt: at,
    createdBy: auth.userId,
    lastUpdated: at,
  };
  await putReminder(auth.practiceId, reminder, 'new');
  try {
    await scheduleReminder(auth.practiceId, reminder.reminderId, reminder.dueAt);
  } catch (error) {
    // Without its schedule the reminder would never fire: do not keep it.
    await deleteReminderItem(auth.practiceId, reminder.reminderId);
    throw error;
  }
  await audit(auth, 'create', reminder);
  return reminder;
}

export async function updateReminder(auth: AuthContext, reminderId: string, input: ReminderUpdateInput, now = new Date()): Promise<Reminder> {
  const current = await ownReminder(auth, reminderId);
  if (current.completionDate) throw new ConflictError(REMINDER_MESSAGES.completed);
  const completing = input.completed === true || input.completionDate !== undefined;
  const assigned = input.assigned ?? current.assigned;
  if (assigned !== current.assigned) await assertAssignable(auth, assigned);
  const dueAt = input.dueAt !== undefined && !completing ? futureDueAt(input.dueAt, now) : current.dueAt;
  const rescheduled = dueAt !== current.dueAt;
  const next: Reminder = {
    ...current,
    text: input.text ?? current.text,
    patientId: input.patientId !== undefined ? input.patientId : current.patientId,
    assigned,
    dueAt,
    firedAt: rescheduled ? null : current.firedAt,
    completionDate: completing ? new Date(input.completionDate ?? now.toISOString()).toISOString() : null,
    lastUpdated: now.toISOString(),
  };
  if (completing || rescheduled) await cancelReminderSchedule(reminderId);
  await putReminder(auth.practiceId, next, 'exists');
  if (rescheduled) await scheduleReminder(auth.practiceId, reminderId, dueAt);
  await audit(auth, 'update', next);
  return next;
}

export async function deleteReminder(auth: AuthContext, reminderId: string): Promise<{ reminderId: string; deleted: true }> {
  const current = await ownReminder(auth, reminderId);
  await cancelReminderSchedule(reminderId);
  await deleteReminderItem(auth.practiceId, reminderId);
  await audit(auth, 'delete', current);
  return { reminderId, deleted: true };
}

export async function listReminders(auth: AuthContext, open: boolean | undefined): Promise<ReminderList> {
  const reminders = (await listRemindersOf(auth.userId)).filter((r) => !open || !r.completionDate);
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'reminder', count: reminders.length },
    reminders.map((r) => r.patientId),
  );
  return { reminders };
}
