import { scheduleAdapterFromEnv, scheduleName, type ScheduleAdapter } from '../../lib/adapters/scheduler.js';

export const REMINDER_JOB_KIND = 'reminder';

export interface ReminderJobPayload {
  kind: typeof REMINDER_JOB_KIND;
  practiceId: string;
  reminderId: string;
}

let override: ScheduleAdapter | undefined;
let fromEnv: ScheduleAdapter | undefined;

/** Tests inject an in-memory adapter. */
export function setReminderScheduleAdapter(adapter: ScheduleAdapter | undefined): void {
  override = adapter;
}

function adapter(): ScheduleAdapter {
  if (override) return override;
  fromEnv ??= scheduleAdapterFromEnv();
  return fromEnv;
}

export const reminderScheduleName = (reminderId: string) => scheduleName(REMINDER_JOB_KIND, reminderId);

/** One one-time schedule per reminder, under a name derived from its id, so retries reuse it. */
export async function scheduleReminder(practiceId: string, reminderId: string, dueAt: string): Promise<void> {
  const payload: ReminderJobPayload = { kind: REMINDER_JOB_KIND, practiceId, reminderId };
  await adapter().createAt({ name: reminderScheduleName(reminderId), at: new Date(dueAt), payload });
}

export async function cancelReminderSchedule(reminderId: string): Promise<void> {
  await adapter().delete(reminderScheduleName(reminderId));
}
