/**
 * The practice group's scheduled jobs, wired into the schedule-target worker by
 * functions/scheduled-jobs.ts. Each loads its code with its first run, so texts and reminders
 * never pay for the calendar's, Google's or DoseSpot's code.
 */
import { log } from '../lib/log.js';
import { DOSESPOT_SYNC_JOB_KIND, type ScheduledJobs } from '../lib/scheduled-jobs.js';

export const PRACTICE_JOBS: ScheduledJobs = {
  'appointment-reminder': async (payload) => {
    const { fireAppointmentReminder } = await import('../core/calendar/appointment-reminders.js');
    await fireAppointmentReminder(payload);
  },
  'appointment-reminders-resync': async (payload) => {
    const { resyncAppointmentReminders } = await import('../core/calendar/appointment-reminders.js');
    await resyncAppointmentReminders(payload);
  },
  // A Google Calendar link made, moved or removed (google-resync.ts).
  'google-calendar-resync': async (payload) => {
    const { resyncGoogleCalendar } = await import('./google-resync.js');
    await resyncGoogleCalendar(payload);
  },
  'google-calendar-unlink': async (payload) => {
    const { cleanUpGoogleUnlink } = await import('./google-resync.js');
    await cleanUpGoogleUnlink(payload);
  },
  // Recurring (functions/workers/schedule-target/recurring.ts), hourly.
  [DOSESPOT_SYNC_JOB_KIND]: async () => {
    const practiceId = process.env.PRACTICE_ID;
    if (!practiceId) throw new Error('PRACTICE_ID is not set');
    const { syncLinkedPatientsRx } = await import('./dosespot-sync.js');
    const outcome = await syncLinkedPatientsRx(practiceId);
    log.info('dosespot scheduled sync', { ...outcome });
  },
};
