/** The notifications group's scheduled jobs, wired into the schedule-target worker by functions/scheduled-jobs.ts. */
import type { ScheduledJobs } from '../lib/scheduled-jobs.js';
import { fireReminder } from './reminders/fire-reminder.js';

export const NOTIFICATION_JOBS: ScheduledJobs = {
  reminder: async (payload) => {
    await fireReminder(payload);
  },
};
