/**
 * Appointment reminder texts. Each appointment series has at most one pending reminder: a
 * one-time Scheduler schedule for its next occurrence, recorded on APPTREMINDER#<appointmentId>
 * so a move or a cancel finds and replaces it. When one fires, the target re-checks the
 * appointment, sends, and schedules the following occurrence's reminder, so a series that never
 * ends holds one schedule, not thousands. Loaded only by the calls that book, change or fire.
 */
import { CALENDAR_MESSAGES as M, DEFAULT_TIME_ZONE, type Appointment } from '../../../shared/calendar/calendar-schema.js';
import type { ReminderSent } from '../../../shared/calendar/calendar-responses.js';
import { expandOccurrences, type Occurrence } from '../../../shared/calendar/recurrence.js';
import { normalizePhone } from '../../../shared/patients/phone.js';
import { scheduleAdapterFromEnv, scheduleName, type ScheduleAdapter } from '../../lib/adapters/scheduler.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { HttpError, NotFoundError } from '../../lib/errors.js';
import { log } from '../../lib/log.js';
import { getOptOut } from '../../data/messaging/messaging-repository.js';
import { practiceNumbers, sendSms, SmsNotSent } from '../messaging/sms-sending.js';
import { getPatient } from '../../data/patients/patient-repository.js';
import { getAppointment, getBookingLocation, getPracticeCalendarSettings, listAppointmentsInRange } from '../../data/calendar/calendar-repository.js';
import { getPractice } from '../../data/practices/practice-repository.js';
import {
  deletePendingReminder,
  getPendingReminder,
  pendingReminderAppointmentIds,
  putPendingReminder,
  type PendingReminder,
} from '../../data/calendar/pending-reminders.js';

export const APPOINTMENT_REMINDER_JOB_KIND = 'appointment-reminder';
export const REMINDER_RESYNC_JOB_KIND = 'appointment-reminders-resync';
/** The settings call returns at once; the resync runs this long after, in the schedule target. */
const RESYNC_DELAY_MS = 5000;
/** One schedule per occurrence: the one firing never blocks creating the next one's. */
export const reminderScheduleName = (appointmentId: string, occurrenceDay: string) =>
  scheduleName(APPOINTMENT_REMINDER_JOB_KIND, `${appointmentId}.${occurrenceDay}`);
/** The reminder's SMS note: one per occurrence, so a target that fires twice sends once. */
export const reminderNoteId = (appointmentId: string, occurrenceDay: string) => `apptrem_${appointmentId}_${occurrenceDay}`;
/** Scheduler fires to the second: a reminder due sooner than this is not scheduled. */
const MIN_LEAD_MS = 5000;
/** A fire this long before its reminder time comes from a superseded schedule. */
const EARLY_TOLERANCE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** How far ahead the next occurrence is looked for (a yearly series' next one fits). */
const SEARCH_DAYS = 400;
const REMINDER_SENDER = { userId: 'appointment-reminders', name: 'Appointment reminder' };

async function practiceCalendarSettings(practiceId: string): Promise<{ timeZone: string; reminderLeadHours: number | null }> {
  return (await getPracticeCalendarSettings(practiceId)) ?? { timeZone: DEFAULT_TIME_ZONE, reminderLeadHours: null };
}

let fromEnv: Promise<ScheduleAdapter> | undefined;
function schedules(): Promise<ScheduleAdapter> {
  fromEnv ??= Promise.resolve(scheduleAdapterFromEnv());
  return fromEnv;
}

/** The first occurrence whose reminder time (start − lead) is still ahead of `now`, or null. */
export function nextReminder(a: Appointment, timeZone: string, leadHours: number, now: Date): { occurrence: Occurrence; at: Date } | null {
  const earliestStart = now.getTime() + leadHours * HOUR_MS + MIN_LEAD_MS;
  const from = new Date(Math.max(earliestStart, Date.parse(a.start)) - 1);
  const to = new Date(from.getTime() + SEARCH_DAYS * 86_400_000);
  const occurrence = expandOccurrences(a, timeZone, from, to).find((o) => Date.parse(o.start) >= earliestStart);
  return occurrence ? { occurrence, at: new Date(Date.parse(occurrence.start) - leadHours * HOUR_MS) } : null;
}

/**
 * Brings each appointment's pending reminder in line with the appointment as stored now: the
 * next occurrence's, at the practice's lead time; none when it is gone or reminders are off.
 */
export async function syncAppointmentReminders(practiceId: string, appointmentIds: readonly string[], now = new Date()): Promise<void> {
  const { timeZone, reminderLeadHours } = await practiceCalendarSettings(practiceId);
  for (const appointmentId of appointmentIds) {
    const [a, pending] = await Promise.all([getAppointment(practiceId, appointmentId), getPendingReminder(practiceId, appointmentId)]);
    const want = a && reminderLeadHours ? nextReminder(a, timeZone, reminderLeadHours, now) : null;
    const wanted = want && {
      scheduleName: reminderScheduleName(appointmentId, want.occurrence.day),
      occurrenceStart: want.occurrence.start,
      at: want.at.toISOString(),
    };
    if (pending && wanted && pending.scheduleName === wanted.scheduleName && pending.occurrenceStart === wanted.occurrenceStart && pending.at === wanted.at)
      continue;
    if (pending) {
      await (await schedules()).delete(pending.scheduleName);
      await deletePendingReminder(practiceId, appointmentId);
    }
    if (!wanted) continue;
    await (
      await schedules()
    ).createAt({
      name: wanted.scheduleName,
      at: new Date(wanted.at),
      payload: { kind: APPOINTMENT_REMINDER_JOB_KIND, practiceId, appointmentId, occurrenceStart: wanted.occurrenceStart },
    });
    const record: PendingReminder = { appointmentId, ...wanted };
    await putPendingReminder(practiceId, record);
  }
}

/**
 * A change of the lead time (reminders turned on, off, or to another time) goes back over every
 * appointment booked: one job in the schedule target, so the settings call stays quick however many
 * appointments the practice has, and a failure is retried and dead-lettered like any reminder.
 */
export async function scheduleReminderResync(practiceId: string, now = new Date()): Promise<void> {
  await (
    await schedules()
  ).createAt({
    name: scheduleName(REMINDER_RESYNC_JOB_KIND, String(now.getTime())),
    at: new Date(now.getTime() + RESYNC_DELAY_MS),
    payload: { kind: REMINDER_RESYNC_JOB_KIND, practiceId },
  });
}

/**
 * The 'appointment-reminders-resync' job: every series with an occurrence ahead, and every pending
 * reminder, brought in line with the lead time as it is now. Safe to run twice or beside a booking:
 * an unchanged reminder is left alone, and a reminder that fires for a superseded time re-checks.
 */
export async function resyncAppointmentReminders(payload: Record<string, unknown>, now = new Date()): Promise<number> {
  const practiceId = String(payload.practiceId ?? '');
  if (!practiceId || (process.env.PRACTICE_ID && process.env.PRACTICE_ID !== practiceId)) {
    log.error('appointment reminder resync with a foreign or missing practice', {});
    return 0;
  }
  const upcoming = await listAppointmentsInRange(practiceId, now.toISOString(), new Date(now.getTime() + SEARCH_DAYS * 86_400_000).toISOString());
  const pending = await pendingReminderAppointmentIds(practiceId);
  const ids = [...new Set([...upcoming.map((a) => a.appointmentId), ...pending])];
  await syncAppointmentReminders(practiceId, ids, now);
  log.info('appointment reminders resynced', { appointments: ids.length });
  return ids.length;
}

/** "Tue 12/01/2026 at 9:00 AM CST": the occurrence's start in the practice's zone, said with the zone. */
export function reminderWhen(startIso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    })
      .formatToParts(new Date(startIso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.month}/${parts.day}/${parts.year} at ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
}

/** The reminder's words: who, when and where only; never the appointment's type, provider or notes. */
export function reminderText(practiceName: string, when: string, where: string): string {
  return `Reminder: you have an appointment with ${practiceName} on ${when}, ${where}. Reply STOP to opt out of texts.`;
}

export type ReminderOutcome = 'sent' | 'skipped';

/**
 * The 'appointment-reminder' job. Sends nothing when the appointment or that occurrence is gone,
 * moved (its own schedule replaced this one), reminders were turned off, the patient has no mobile
 * number or opted out, or the practice is deactivated. The note id is per occurrence, so a second
 * delivery finds the first text instead of sending again.
 */
export async function fireAppointmentReminder(payload: Record<string, unknown>, now = new Date()): Promise<ReminderOutcome> {
  const practiceId = String(payload.practiceId ?? '');
  const appointmentId = String(payload.appointmentId ?? '');
  const occurrenceStart = String(payload.occurrenceStart ?? '');
  if (!practiceId || !appointmentId || !occurrenceStart || (process.env.PRACTICE_ID && process.env.PRACTICE_ID !== practiceId)) {
    log.error('appointment reminder with a foreign or missing practice or appointment', { appointmentId: appointmentId || null });
    return 'skipped';
  }
  const [a, settings] = await Promise.all([getAppointment(practiceId, appointmentId), practiceCalendarSettings(practiceId)]);
  const { timeZone, reminderLeadHours } = settings;
  const start = Date.parse(occurrenceStart);
  const occurrence =
    a && Number.isFinite(start)
      ? expandOccurrences(a, timeZone, new Date(start - 1), new Date(start + HOUR_MS)).find((o) => o.start === new Date(start).toISOString())
      : undefined;
  if (!a || !occurrence || !reminderLeadHours) {
    log.info('appointment reminder not due', { appointmentId, reason: !a ? 'no appointment' : !occurrence ? 'no occurrence' : 'reminders off' });
    return 'skipped';
  }
  const at = start - reminderLeadHours * HOUR_MS;
  if (at - now.getTime() > EARLY_TOLERANCE_MS) {
    // The lead time changed since this was scheduled: the pending reminder moves to the new time.
    await syncAppointmentReminders(practiceId, [appointmentId], now);
    return 'skipped';
  }
  let outcome: ReminderOutcome = 'skipped';
  try {
    outcome = await sendReminder(practiceId, a, occurrence, timeZone, now);
  } finally {
    // The following occurrence's reminder, whatever became of this one (a missing mobile number may be added by then).
    await syncAppointmentReminders(practiceId, [appointmentId], new Date(Math.max(now.getTime(), at + 1000)));
  }
  return outcome;
}

/** Why a reminder cannot go to the patient now, in words for the person who asked for it. */
export type ReminderRefusal = 'no-mobile' | 'no-practice-number' | 'patient-inactive' | 'deactivated' | 'opted-out' | 'past';
interface ReminderDelivery {
  to: string;
  from: string;
  text: string;
}

/**
 * What a reminder of this occurrence would be (to, from, text), or why none can be sent: the
 * patient's mobile number, the practice's number, the patient and practice active, not opted out.
 * The scheduled reminder and the one sent by hand check the same things.
 */
async function reminderDelivery(
  practiceId: string,
  a: Appointment,
  occurrence: Occurrence,
  timeZone: string,
  now: Date,
): Promise<ReminderDelivery | ReminderRefusal> {
  if (Date.parse(occurrence.start) <= now.getTime()) return 'past';
  const [patient, practice, numbers, location] = await Promise.all([
    getPatient(practiceId, a.patientId),
    getPractice(practiceId),
    practiceNumbers(practiceId),
    a.bookingLocationId ? getBookingLocation(practiceId, a.bookingLocationId) : Promise.resolve(null),
  ]);
  const mobile = patient?.phones?.find((p) => p.type === 'mobile' && normalizePhone(p.number));
  const to = mobile ? normalizePhone(mobile.number) : null;
  const from = numbers[0];
  if (!patient || patient.status === 'DELETED') return 'patient-inactive';
  if (!practice || practice.productDeactivatedAt) return 'deactivated';
  if (!to) return 'no-mobile';
  if (!from) return 'no-practice-number';
  if ((await getOptOut(to, practiceId)).optedOut) return 'opted-out';
  const where =
    a.visitType === 'virtual'
      ? 'a virtual visit'
      : location
        ? `at ${[location.name, location.address].filter(Boolean).join(', ')}`
        : `at ${practice.practiceName}`;
  return { to, from, text: reminderText(practice.practiceName, reminderWhen(occurrence.start, timeZone), where) };
}

async function sendReminder(practiceId: string, a: Appointment, occurrence: Occurrence, timeZone: string, now: Date): Promise<ReminderOutcome> {
  const delivery = await reminderDelivery(practiceId, a, occurrence, timeZone, now);
  if (typeof delivery === 'string') {
    if (delivery !== 'past') log.info('appointment reminder not sent', { appointmentId: a.appointmentId, reason: delivery });
    return 'skipped';
  }
  try {
    const sent = await sendSms(
      practiceId,
      REMINDER_SENDER,
      {
        practicePhone: delivery.from,
        patientPhone: delivery.to,
        text: delivery.text,
        files: [],
        patientId: a.patientId,
        noteId: reminderNoteId(a.appointmentId, occurrence.day),
      },
      now,
    );
    return sent.sentNow === false ? 'skipped' : 'sent';
  } catch (error) {
    // The failed text stays in the conversation with its reason; the schedule is not retried for it.
    if (error instanceof SmsNotSent) return 'skipped';
    throw error;
  }
}

const REFUSAL_WORDS: Record<ReminderRefusal, string> = {
  'no-mobile': M.reminderNoMobile,
  'opted-out': M.reminderOptedOut,
  'no-practice-number': M.reminderNoPracticeNumber,
  deactivated: M.reminderDeactivated,
  'patient-inactive': M.patientNotFound,
  past: M.reminderPast,
};

/**
 * "Send reminder" on an appointment: the occurrence's reminder text goes to the patient now, from
 * the signed-in user, through the same checks and SMS path as the scheduled one (whether or not
 * the practice schedules reminders). Each press is its own text; the scheduled one still follows.
 * A reason it cannot go is a 4xx in plain words and is in the patient's access history.
 */
export async function sendReminderNow(
  auth: AuthContext,
  appointmentId: string,
  occurrenceDay: string,
  senderName: string,
  now = new Date(),
): Promise<ReminderSent> {
  const [a, settings] = await Promise.all([getAppointment(auth.practiceId, appointmentId), practiceCalendarSettings(auth.practiceId)]);
  if (!a) throw new NotFoundError(M.appointmentNotFound);
  const [y, m, d] = occurrenceDay.split('-').map(Number);
  const occurrence = expandOccurrences(
    a,
    settings.timeZone,
    new Date(Date.UTC(y, m - 1, d) - 2 * 86_400_000),
    new Date(Date.UTC(y, m - 1, d) + 3 * 86_400_000),
  ).find((o) => o.day === occurrenceDay);
  if (!occurrence) throw new NotFoundError(M.notAnOccurrence);
  const delivery = await reminderDelivery(auth.practiceId, a, occurrence, settings.timeZone, now);
  if (typeof delivery === 'string') {
    await writeAudit(auth, { action: 'refused', entity: 'APPOINTMENT_REMINDER', entityId: appointmentId, patientId: a.patientId, detail: delivery });
    if (delivery === 'patient-inactive') throw new NotFoundError(REFUSAL_WORDS[delivery]);
    throw new HttpError(delivery === 'past' ? 409 : 422, REFUSAL_WORDS[delivery], { reason: delivery });
  }
  const noteId = `apptrem_${appointmentId}_${occurrenceDay}_${now.getTime()}`;
  try {
    await sendSms(
      auth.practiceId,
      { userId: auth.userId, name: senderName },
      { practicePhone: delivery.from, patientPhone: delivery.to, text: delivery.text, files: [], patientId: a.patientId, noteId },
      now,
    );
  } catch (error) {
    await writeAudit(auth, { action: 'refused', entity: 'APPOINTMENT_REMINDER', entityId: appointmentId, patientId: a.patientId, detail: 'carrier' });
    // The failed text stays in the patient's conversation with the carrier's reason.
    if (error instanceof SmsNotSent) throw new HttpError(422, M.reminderNotSent(error.message), { reason: error.kind });
    throw error;
  }
  await writeAudit(auth, { action: 'create', entity: 'APPOINTMENT_REMINDER', entityId: appointmentId, patientId: a.patientId, detail: occurrenceDay });
  return { appointmentId, occurrenceDay, text: delivery.text, sentAt: now.toISOString(), toLastFour: delivery.to.slice(-4) };
}
