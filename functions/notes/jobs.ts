/** The notes group's scheduled jobs, wired into the schedule-target worker by functions/scheduled-jobs.ts; each loads its code with its first run. */
import { log } from '../lib/log.js';
import type { ScheduledJobs } from '../lib/scheduled-jobs.js';

export const NOTE_JOBS: ScheduledJobs = {
  // A completed inbound call with no voicemail yet (call-deliveries.ts).
  'call-outcome-check': async (payload) => {
    const { fireCallOutcomeCheck } = await import('./call-deliveries.js');
    const outcome = await fireCallOutcomeCheck(payload);
    log.info('call outcome check', { outcome });
  },
  // An unreviewed critical lab value (lab-reviews.ts).
  'lab-critical-escalation': async (payload) => {
    const { fireLabCriticalEscalation } = await import('./lab-escalation.js');
    const outcome = await fireLabCriticalEscalation(payload);
    log.info('lab critical escalation', { outcome });
  },
};
