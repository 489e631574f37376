/**
 * Booking, changing and cancelling appointments: the calendar's rules (double booking refused in the
 * practice's time, references checked, one occurrence taken out of its series), run by the calendar
 * routes and by the FHIR import of appointments. The reminder texts and the providers' Google
 * Calendars follow each write (both loaded only when a write happens).
 */
import { randomUUID } from 'node:crypto';
import {
  AppointmentInput,
  CALENDAR_MESSAGES as M,
  CONFLICT_HORIZON_DAYS,
  DEFAULT_TIME_ZONE,
  type Appointment,
  type PracticeCalendarSettings,
} from '../../../shared/calendar/calendar-schema.js';
import { expandOccurrences, isoDay, seriesEnd, zonedParts, type Occurrence, type Recurrence } from '../../../shared/calendar/recurrence.js';
import type { z } from '../../../shared/zod.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { log } from '../../lib/log.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { getPatient } from '../../data/patients/patient-repository.js';
import * as repo from '../../data/calendar/calendar-repository.js';
import { getUser } from '../../data/users/user-repository.js';

type Parsed<T extends z.ZodMiniType> = z.output<T>;

export async function practiceCalendarSettings(practiceId: string): Promise<PracticeCalendarSettings> {
  return (
    (await repo.getPracticeCalendarSettings(practiceId)) ?? {
      timeZone: DEFAULT_TIME_ZONE,
      feedShowsNames: false,
      googleShowsNames: false,
      reminderLeadHours: null,
      updatedAt: '',
    }
  );
}

/**
 * The appointments' reminder texts follow what was just written. The booking itself stands even if
 * the scheduler fails: the error is logged (no patient data) rather than turning a saved change into a 500.
 */
async function syncReminders(practiceId: string, appointmentIds: string[]): Promise<void> {
  try {
    await (await import('./appointment-reminders.js')).syncAppointmentReminders(practiceId, appointmentIds);
  } catch (error) {
    log.error('appointment reminder not scheduled', { appointmentIds, error: (error as Error)?.name });
  }
}

/**
 * The providers' linked Google Calendars follow what was just written. Google failing never fails
 * the booking: the outcome is kept on the provider's link (their card says so) and logged without patient data.
 */
async function syncGoogle(auth: AuthContext, appointmentIds: string[]): Promise<void> {
  try {
    await (await import('./google-push.js')).pushAppointmentsToGoogle(auth, appointmentIds);
  } catch (error) {
    log.error('google calendar not updated', { appointmentIds, error: (error as Error)?.name });
  }
}

const DAY_MS = 86_400_000;

/** "on 11/05/2026 from 9:00 AM to 9:30 AM" in the practice's zone (spec §9: MM/DD/YYYY, h:mm A). */
export function describeSlot(occurrence: Pick<Occurrence, 'start' | 'end'>, timeZone: string): string {
  const time = (iso: string) => {
    const p = zonedParts(new Date(iso), timeZone);
    return `${p.hour % 12 || 12}:${String(p.minute).padStart(2, '0')} ${p.hour < 12 ? 'AM' : 'PM'}`;
  };
  const d = zonedParts(new Date(occurrence.start), timeZone);
  const day = `${String(d.month).padStart(2, '0')}/${String(d.day).padStart(2, '0')}/${d.year}`;
  return `on ${day} from ${time(occurrence.start)} to ${time(occurrence.end)}`;
}

/** The window a series is checked in: all of it, or a year ahead of its start when it never ends. */
function checkWindow(a: Pick<Appointment, 'start' | 'durationMinutes'> & { recurrence: Recurrence }, timeZone: string): [Date, Date] {
  const from = new Date(a.start);
  const end = seriesEnd(a, timeZone);
  return [from, end ? new Date(end) : new Date(from.getTime() + CONFLICT_HORIZON_DAYS * DAY_MS)];
}

/** The first occurrence of another series of the provider that overlaps one of the candidate's, or null. */
export async function firstClash(practiceId: string, candidate: Appointment, timeZone: string, replacing?: Appointment): Promise<Occurrence | null> {
  const [from, to] = checkWindow(candidate, timeZone);
  const mine = expandOccurrences(candidate, timeZone, from, to);
  if (!mine.length) return null;
  const others = (await repo.listAppointmentsOverlapping(practiceId, from.toISOString(), to.toISOString(), candidate.providerId))
    .filter((a) => a.appointmentId !== candidate.appointmentId)
    // The series an occurrence is being taken out of is checked as it will be written, without that day.
    .map((a) => (replacing && a.appointmentId === replacing.appointmentId ? replacing : a))
    .flatMap((a) => expandOccurrences(a, timeZone, from, to))
    .sort((a, b) => a.start.localeCompare(b.start));
  for (const o of mine) {
    // Instants as ISO strings in UTC compare in time order.
    const clash = others.find((x) => x.start < o.end && o.start < x.end);
    if (clash) return clash;
  }
  return null;
}

/** The patient, provider, type and location a booking names, read together. */
async function readReferences(practiceId: string, input: Parsed<typeof AppointmentInput>) {
  const [patient, provider, type, location] = await Promise.all([
    getPatient(practiceId, input.patientId),
    getUser(practiceId, input.providerId),
    repo.getAppointmentType(practiceId, input.appointmentTypeId),
    input.bookingLocationId ? repo.getBookingLocation(practiceId, input.bookingLocationId) : Promise.resolve(null),
  ]);
  return { patient, provider, type, location };
}

function validateReferences(
  { patient, provider, type, location }: Awaited<ReturnType<typeof readReferences>>,
  input: Parsed<typeof AppointmentInput>,
  timeZone: string,
) {
  const errors: Record<string, string> = {};
  if (!patient || patient.status === 'DELETED') errors.patientId = M.patientNotFound;
  if (!provider || provider.userStatus === 'deleted' || provider.permissionGroup === 'no_access') errors.providerId = M.providerNotFound;
  if (!type) errors.appointmentTypeId = M.typeNotFound;
  else if (type.status !== 'active') errors.appointmentTypeId = M.typeInactive;
  if (input.bookingLocationId && !location) errors.bookingLocationId = M.locationNotFound;
  else if (location && location.status !== 'active') errors.bookingLocationId = M.locationInactive;
  if (input.visitType === 'in_person' && !input.bookingLocationId) errors.bookingLocationId = M.locationRequired;
  const r = input.recurrence;
  if (r.frequency !== 'Never' && r.end === 'ON') {
    if (!r.until) errors['recurrence.until'] = M.untilRequired;
    else if (r.until < isoDay(zonedParts(new Date(input.start), timeZone))) errors['recurrence.until'] = M.untilBeforeStart;
  }
  const first = Object.values(errors)[0];
  if (first) throw new ValidationError(first, errors);
  return { providerName: provider!.name };
}

function toSeries(auth: AuthContext, id: string, input: Parsed<typeof AppointmentInput>, previous: Appointment | null): Appointment {
  const now = new Date().toISOString();
  const r = input.recurrence;
  return {
    appointmentId: id,
    patientId: input.patientId,
    appointmentTypeId: input.appointmentTypeId,
    providerId: input.providerId,
    bookingLocationId: input.visitType === 'virtual' ? (input.bookingLocationId ?? null) : input.bookingLocationId,
    visitType: input.visitType,
    start: new Date(input.start).toISOString(),
    durationMinutes: input.durationMinutes,
    recurrence: r.frequency === 'Never' ? { ...r, end: 'NEVER', until: null, count: 1 } : { ...r, until: r.end === 'ON' ? r.until : null },
    notes: input.notes,
    excludedDays: previous?.excludedDays ?? [],
    detachedFrom: previous?.detachedFrom ?? null,
    arrivals: previous?.arrivals ?? {},
    createdBy: previous?.createdBy ?? auth.userId,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  };
}

/** A changed occurrence keeps where its patient is, under the day it now falls on. */
function detachedArrival(series: Appointment, occurrenceDay: string, start: string, timeZone: string): Appointment['arrivals'] {
  const status = series.arrivals[occurrenceDay];
  return status ? { [isoDay(zonedParts(new Date(start), timeZone))]: status } : {};
}

/** Whether `day` (YYYY-MM-DD in the zone) is one of the series' occurrences still on the calendar. */
export function occursOn(series: Appointment, day: string, timeZone: string): boolean {
  const [y, m, d] = day.split('-').map(Number);
  const from = new Date(Date.UTC(y, m - 1, d) - 2 * DAY_MS);
  const to = new Date(Date.UTC(y, m - 1, d) + 3 * DAY_MS);
  return expandOccurrences(series, timeZone, from, to).some((o) => o.day === day);
}

/**
 * Books or changes a series: refused (409, in the practice's time) when any of its occurrences
 * overlaps one of the provider's other appointments. The provider's calendar is claimed in the
 * write, so a booking made meanwhile makes this one check again rather than both landing.
 *
 * With `occurrenceDay`, only that occurrence of the series changes: the day leaves the series and
 * comes back as an appointment of its own with the new values, both in one write.
 *
 * `history` books a new appointment as another calendar already had it (the FHIR import): a
 * series with the days it had taken out already gone, so only its remaining days are checked for
 * double booking, or one of its days booked alone and linked to it, and booked when the other
 * calendar says it was (`createdAt`), so a restored calendar does not date every visit to the restore.
 */
export async function saveAppointment(
  auth: AuthContext,
  id: string | null,
  input: Parsed<typeof AppointmentInput>,
  occurrenceDay?: string,
  history?: Pick<Appointment, 'excludedDays' | 'detachedFrom'> & { createdAt?: string },
): Promise<Appointment> {
  // Three reads that do not depend on each other, in one round trip; only the first can refuse.
  const [previous, { timeZone }, references] = await Promise.all([
    id ? requireAppointment(auth, id) : null,
    practiceCalendarSettings(auth.practiceId),
    readReferences(auth.practiceId, input),
  ]);
  if (previous && input.updatedAt && input.updatedAt !== previous.updatedAt) throw new ConflictError(M.changedElsewhere);
  const single = Boolean(previous && occurrenceDay && previous.recurrence.frequency !== 'Never');
  if (single && !occursOn(previous!, occurrenceDay!, timeZone)) throw new NotFoundError(M.notAnOccurrence);
  const effective = single ? { ...input, recurrence: { ...input.recurrence, frequency: 'Never' as const } } : input;
  const { providerName } = validateReferences(references, effective, timeZone);
  const next = single
    ? {
        ...toSeries(auth, randomUUID(), effective, null),
        detachedFrom: { appointmentId: previous!.appointmentId, occurrenceDay: occurrenceDay! },
        arrivals: detachedArrival(previous!, occurrenceDay!, effective.start, timeZone),
      }
    : {
        ...toSeries(auth, id ?? randomUUID(), input, previous),
        ...(!previous && history
          ? {
              excludedDays: [...new Set(history.excludedDays)].sort(),
              detachedFrom: history.detachedFrom,
              ...(history.createdAt ? { createdAt: history.createdAt } : {}),
            }
          : {}),
      };
  const series = single ? { ...previous!, excludedDays: [...previous!.excludedDays, occurrenceDay!], updatedAt: next.updatedAt } : null;
  for (let attempt = 0; ; attempt++) {
    const providers = [...new Set([next.providerId, ...(previous ? [previous.providerId] : [])])];
    const locks = await Promise.all(providers.map(async (providerId) => ({ providerId, seen: await repo.readProviderLock(auth.practiceId, providerId) })));
    const clash = await firstClash(auth.practiceId, next, timeZone, series ?? undefined);
    if (clash) throw new ConflictError(M.doubleBooked(providerName, describeSlot(clash, timeZone)), { field: 'start' });
    const writes: repo.AppointmentWrite[] = series
      ? [
          { next, seriesEnd: seriesEnd(next, timeZone), previousUpdatedAt: null },
          { next: series, seriesEnd: seriesEnd(series, timeZone), previousUpdatedAt: previous!.updatedAt },
        ]
      : [{ next, seriesEnd: seriesEnd(next, timeZone), previousUpdatedAt: previous?.updatedAt ?? null }];
    try {
      await repo.writeAppointments(auth.practiceId, writes, locks);
      break;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (previous && (await repo.getAppointment(auth.practiceId, previous.appointmentId))?.updatedAt !== previous.updatedAt)
        throw new ConflictError(M.changedElsewhere);
      if (attempt >= 2) throw new ConflictError(M.changedElsewhere);
    }
  }
  const changed = series ? [next.appointmentId, series.appointmentId] : [next.appointmentId];
  await Promise.all([
    writeAudit(auth, { action: previous ? 'update' : 'create', entity: 'APPOINTMENT', entityId: next.appointmentId, patientId: next.patientId }),
    syncReminders(auth.practiceId, changed),
    syncGoogle(auth, changed),
  ]);
  return next;
}

export async function requireAppointment(auth: AuthContext, id: string): Promise<Appointment> {
  const a = await repo.getAppointment(auth.practiceId, id);
  if (!a) throw new NotFoundError(M.appointmentNotFound);
  return a;
}

/** Cancels the series, or with `occurrenceDay` only that occurrence of it (the rest stay booked). */
export async function cancelAppointment(auth: AuthContext, id: string, occurrenceDay?: string) {
  const a = await requireAppointment(auth, id);
  if (occurrenceDay && a.recurrence.frequency !== 'Never') {
    const { timeZone } = await practiceCalendarSettings(auth.practiceId);
    if (!occursOn(a, occurrenceDay, timeZone)) throw new NotFoundError(M.notAnOccurrence);
    const series = { ...a, excludedDays: [...a.excludedDays, occurrenceDay], updatedAt: new Date().toISOString() };
    try {
      await repo.writeAppointments(auth.practiceId, [{ next: series, seriesEnd: seriesEnd(series, timeZone), previousUpdatedAt: a.updatedAt }], []);
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(M.changedElsewhere);
      throw error;
    }
    await writeAudit(auth, { action: 'update', entity: 'APPOINTMENT', entityId: id, patientId: a.patientId });
    await Promise.all([syncReminders(auth.practiceId, [id]), syncGoogle(auth, [id])]);
    return { appointmentId: id, occurrenceDay };
  }
  try {
    await repo.deleteAppointment(auth.practiceId, id);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(M.appointmentNotFound);
    throw error;
  }
  await writeAudit(auth, { action: 'delete', entity: 'APPOINTMENT', entityId: id, patientId: a.patientId });
  await Promise.all([syncReminders(auth.practiceId, [id]), syncGoogle(auth, [id])]);
  return { appointmentId: id };
}
