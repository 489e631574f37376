/**
 * The registered scheduled-job kinds. Each feature adds one line here, e.g.
 * `registerScheduledJob('reminder', sendReminder);`, and schedules with `{ kind: 'reminder', ... }`.
 */
import { fireScheduledSms, SCHEDULED_SMS_JOB_KIND } from '../../messaging/scheduled-events.js';
import { fireReminder } from '../../notifications/reminders/fire-reminder.js';
import { log } from '../../lib/log.js';
import { DOSESPOT_SYNC_JOB_KIND } from './recurring.js';
import { registerScheduledJob } from './registry.js';

registerScheduledJob('reminder', async (payload) => {
  await fireReminder(payload);
});

registerScheduledJob(SCHEDULED_SMS_JOB_KIND, async (payload) => {
  await fireScheduledSms(payload);
});

// The calendar's reminder code loads with the first reminder that fires.
registerScheduledJob('appointment-reminder', async (payload) => {
  const { fireAppointmentReminder } = await import('../../practice/appointment-reminders.js');
  await fireAppointmentReminder(payload);
});

registerScheduledJob('appointment-reminders-resync', async (payload) => {
  const { resyncAppointmentReminders } = await import('../../practice/appointment-reminders.js');
  await resyncAppointmentReminders(payload);
});

// A Google Calendar link made, moved or removed (functions/practice/google-resync.ts); Google's code loads with the first one.
registerScheduledJob('google-calendar-resync', async (payload) => {
  const { resyncGoogleCalendar } = await import('../../practice/google-resync.js');
  await resyncGoogleCalendar(payload);
});

registerScheduledJob('google-calendar-unlink', async (payload) => {
  const { cleanUpGoogleUnlink } = await import('../../practice/google-resync.js');
  await cleanUpGoogleUnlink(payload);
});

// A completed inbound call with no voicemail yet (functions/notes/call-deliveries.ts); the calls code loads with the first check.
registerScheduledJob('call-outcome-check', async (payload) => {
  const { fireCallOutcomeCheck } = await import('../../notes/call-deliveries.js');
  const outcome = await fireCallOutcomeCheck(payload);
  log.info('call outcome check', { outcome });
});

// An unreviewed critical lab value (functions/notes/lab-reviews.ts); its code loads with the first one.
registerScheduledJob('lab-critical-escalation', async (payload) => {
  const { fireLabCriticalEscalation } = await import('./lab-escalation.js');
  const outcome = await fireLabCriticalEscalation(payload);
  log.info('lab critical escalation', { outcome });
});

// Recurring (recurring.ts). DoseSpot's code loads with the first run: texts and reminders never pay for it.
registerScheduledJob(DOSESPOT_SYNC_JOB_KIND, async () => {
  const practiceId = process.env.PRACTICE_ID;
  if (!practiceId) throw new Error('PRACTICE_ID is not set');
  const { syncLinkedPatientsRx } = await import('../../practice/dosespot-sync.js');
  const outcome = await syncLinkedPatientsRx(practiceId);
  log.info('dosespot scheduled sync', { ...outcome });
});
