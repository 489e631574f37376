/** The messaging group's scheduled jobs and its SMS topic consumer, wired into the schedule-target worker by functions/scheduled-jobs.ts. */
import type { ScheduledJobs } from '../lib/scheduled-jobs.js';
import { fireScheduledSms, SCHEDULED_SMS_JOB_KIND } from './scheduled-events.js';

export { handler as smsTopicHandler } from './sms-topic.js';

export const MESSAGING_JOBS: ScheduledJobs = {
  [SCHEDULED_SMS_JOB_KIND]: async (payload) => {
    await fireScheduledSms(payload);
  },
};
