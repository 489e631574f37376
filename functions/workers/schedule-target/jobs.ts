/**
 * The registered scheduled-job kinds. Each feature adds one line here, e.g.
 * `registerScheduledJob('reminder', sendReminder);`, and schedules with `{ kind: 'reminder', ... }`.
 */
import { fireScheduledSms, SCHEDULED_SMS_JOB_KIND } from '../../messaging/scheduled-events.js';
import { fireReminder } from '../../notifications/reminders/fire-reminder.js';
import { registerScheduledJob } from './registry.js';

registerScheduledJob('reminder', async (payload) => {
  await fireReminder(payload);
});

registerScheduledJob(SCHEDULED_SMS_JOB_KIND, async (payload) => {
  await fireScheduledSms(payload);
});
