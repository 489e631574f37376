/**
 * The registered scheduled-job kinds. Each feature adds one line here, e.g.
 * `registerScheduledJob('reminder', sendReminder);`, and schedules with `{ kind: 'reminder', ... }`.
 */
import { fireReminder } from '../../notifications/reminders/fire-reminder.js';
import { registerScheduledJob } from './registry.js';

registerScheduledJob('reminder', async (payload) => {
  await fireReminder(payload);
});
