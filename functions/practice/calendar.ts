import { randomUUID } from 'node:crypto';
import {
  AppointmentRangeQuery,
  AppointmentTypeInput,
  ArrivalInput,
  BookingLocationInput,
  CALENDAR_MESSAGES as M,
  NEXT_VISITS_DAYS,
  NEXT_VISITS_MAX,
  DEFAULT_WORKING_HOURS,
  MAX_RANGE_DAYS,
  PracticeCalendarSettingsInput,
  UserCalendarSettingsInput,
  type Appointment,
  type AppointmentType,
  type BookingLocation,
  type UserCalendarSettings,
} from '../../shared/calendar/calendar-schema.js';
import type { AppointmentOccurrence, AppointmentOccurrenceArrival, UpcomingVisits, AppointmentRange } from '../../shared/calendar/calendar-responses.js';
import { expandOccurrences, isTimeZone } from '../../shared/calendar/recurrence.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import type { z } from '../../shared/zod.js';
import { writeAudit, writeAuditForPatients } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import { isConditionFailure } from '../lib/table/condition-failure.js';
import { getPatient, getPatientsByIds } from '../data/patients/patient-repository.js';
import * as repo from '../data/calendar/calendar-repository.js';
import { getUser, listUsers } from '../data/users/user-repository.js';
import { occursOn, practiceCalendarSettings, requireAppointment } from '../core/calendar/appointment-booking.js';

type Parsed<T extends z.ZodMiniType> = z.output<T>;

// Appointment types and booking locations: everyone reads them, admins change them (route permission).
export async function listAppointmentTypes(auth: AuthContext, status?: 'active' | 'inactive') {
  const types = await repo.listAppointmentTypes(auth.practiceId);
  return { appointmentTypes: status ? types.filter((t) => t.status === status) : types };
}
export async function requireAppointmentType(auth: AuthContext, ident: string): Promise<AppointmentType> {
  const t = await repo.getAppointmentType(auth.practiceId, ident);
  if (!t) throw new NotFoundError(M.typeNotFound);
  return t;
}
export async function saveAppointmentType(auth: AuthContext, ident: string | null, input: Parsed<typeof AppointmentTypeInput>): Promise<AppointmentType> {
  const previous = ident ? await requireAppointmentType(auth, ident) : null;
  const now = new Date().toISOString();
  const t: AppointmentType = { ident: previous?.ident ?? randomUUID(), ...input, createdAt: previous?.createdAt ?? now, updatedAt: now };
  await repo.putAppointmentType(auth.practiceId, t);
  await writeAudit(auth, { action: previous ? 'update' : 'create', entity: 'APPOINTMENT_TYPE', entityId: t.ident });
  return t;
}
export async function removeAppointmentType(auth: AuthContext, ident: string) {
  await requireAppointmentType(auth, ident);
  await repo.deleteAppointmentType(auth.practiceId, ident);
  await writeAudit(auth, { action: 'delete', entity: 'APPOINTMENT_TYPE', entityId: ident });
  return { ident };
}

export async function listBookingLocations(auth: AuthContext, status?: 'active' | 'inactive') {
  const locations = await repo.listBookingLocations(auth.practiceId);
  return { bookingLocations: status ? locations.filter((l) => l.status === status) : locations };
}
async function requireBookingLocation(auth: AuthContext, ident: string): Promise<BookingLocation> {
  const l = await repo.getBookingLocation(auth.practiceId, ident);
  if (!l) throw new NotFoundError(M.locationNotFound);
  return l;
}
export async function saveBookingLocation(auth: AuthContext, ident: string | null, input: Parsed<typeof BookingLocationInput>): Promise<BookingLocation> {
  const previous = ident ? await requireBookingLocation(auth, ident) : null;
  const now = new Date().toISOString();
  const l: BookingLocation = { ident: previous?.ident ?? randomUUID(), ...input, createdAt: previous?.createdAt ?? now, updatedAt: now };
  await repo.putBookingLocation(auth.practiceId, l);
  await writeAudit(auth, { action: previous ? 'update' : 'create', entity: 'BOOKING_LOCATION', entityId: l.ident });
  return l;
}
export async function removeBookingLocation(auth: AuthContext, ident: string) {
  await requireBookingLocation(auth, ident);
  await repo.deleteBookingLocation(auth.practiceId, ident);
  await writeAudit(auth, { action: 'delete', entity: 'BOOKING_LOCATION', entityId: ident });
  return { ident };
}

// Settings
export async function userCalendarSettings(auth: AuthContext, userId: string): Promise<UserCalendarSettings> {
  const stored = await repo.getUserCalendarSettings(auth.practiceId, userId);
  if (stored) return stored;
  if (!(await getUser(auth.practiceId, userId)) && userId !== auth.userId) throw new NotFoundError(M.providerNotFound);
  return { userId, defaultView: 'week', workingHours: DEFAULT_WORKING_HOURS, blockedTimes: [], daysOff: [], updatedAt: '' };
}
export async function putUserCalendarSettings(auth: AuthContext, userId: string, input: Parsed<typeof UserCalendarSettingsInput>) {
  if (userId !== auth.userId && auth.role !== 'admin') throw new ForbiddenError(M.otherUsersSettings);
  if (userId !== auth.userId && !(await getUser(auth.practiceId, userId))) throw new NotFoundError(M.providerNotFound);
  const bad = input.workingHours.findIndex((d) => d.end <= d.start);
  if (bad !== -1) throw new ValidationError(M.hoursBackwards, { [`workingHours.${bad}.end`]: M.hoursBackwards });
  const badBlock = input.blockedTimes.findIndex((d) => d.end <= d.start);
  if (badBlock !== -1) throw new ValidationError(M.blockedBackwards, { [`blockedTimes.${badBlock}.end`]: M.blockedBackwards });
  const badDays = input.daysOff.findIndex((d) => d.to < d.from);
  if (badDays !== -1) throw new ValidationError(M.daysOffBackwards, { [`daysOff.${badDays}.to`]: M.daysOffBackwards });
  const settings: UserCalendarSettings = { userId, ...input, updatedAt: new Date().toISOString() };
  await repo.putUserCalendarSettings(auth.practiceId, settings);
  await writeAudit(auth, { action: 'update', entity: 'CALENDAR_SETTINGS', entityId: userId });
  return settings;
}
export async function putPracticeCalendarSettings(auth: AuthContext, input: Parsed<typeof PracticeCalendarSettingsInput>) {
  if (!isTimeZone(input.timeZone)) throw new ValidationError(M.badTimeZone, { timeZone: M.badTimeZone });
  const previous = await practiceCalendarSettings(auth.practiceId);
  const settings = {
    timeZone: input.timeZone,
    feedShowsNames: input.feedShowsNames ?? previous.feedShowsNames,
    googleShowsNames: input.googleShowsNames ?? previous.googleShowsNames,
    reminderLeadHours: input.reminderLeadHours === undefined ? previous.reminderLeadHours : input.reminderLeadHours,
    updatedAt: new Date().toISOString(),
  };
  await repo.putPracticeCalendarSettings(auth.practiceId, settings);
  await writeAudit(auth, { action: 'update', entity: 'CALENDAR_SETTINGS', entityId: 'PRACTICE' });
  // Patient names starting to leave the practice is its own entry, so the access history shows who allowed it and when.
  if (settings.feedShowsNames && !previous.feedShowsNames)
    await writeAudit(auth, { action: 'update', entity: 'PATIENT_NAMES_SHARED', entityId: 'CALENDAR_FEEDS', detail: 'Calendar feeds show patient names' });
  if (settings.googleShowsNames && !previous.googleShowsNames)
    await writeAudit(auth, {
      action: 'update',
      entity: 'PATIENT_NAMES_SHARED',
      entityId: 'GOOGLE_CALENDAR',
      detail: 'Google Calendar events show patient names',
    });
  if (settings.reminderLeadHours !== previous.reminderLeadHours) await resyncReminders(auth.practiceId);
  return settings;
}

const DAY_MS = 86_400_000;

/** Appointments already booked follow a new lead time; the saved setting stands even if the scheduler fails. */
async function resyncReminders(practiceId: string): Promise<void> {
  try {
    await (await import('../core/calendar/appointment-reminders.js')).scheduleReminderResync(practiceId);
  } catch (error) {
    log.error('appointment reminder resync not scheduled', { error: (error as Error)?.name });
  }
}

export async function readAppointment(auth: AuthContext, id: string): Promise<Appointment> {
  const a = await requireAppointment(auth, id);
  await writeAudit(auth, { action: 'read', entity: 'APPOINTMENT', entityId: id, patientId: a.patientId });
  return a;
}

/** The occurrences in [start, end), in time order, with the names the calendar shows. */
export async function appointmentRange(auth: AuthContext, query: Parsed<typeof AppointmentRangeQuery>): Promise<AppointmentRange> {
  const from = new Date(query.start);
  const to = new Date(query.end);
  if (to <= from) throw new ValidationError(M.rangeOrder, { end: M.rangeOrder });
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) throw new ValidationError(M.rangeTooLong, { end: M.rangeTooLong });
  const [{ timeZone }, series, types, locations, users] = await Promise.all([
    practiceCalendarSettings(auth.practiceId),
    repo.listAppointmentsInRange(auth.practiceId, from.toISOString(), to.toISOString(), query.providerId),
    repo.listAppointmentTypes(auth.practiceId),
    repo.listBookingLocations(auth.practiceId),
    listUsers(auth.practiceId),
  ]);
  const expanded = series.flatMap((s) => expandOccurrences(s, timeZone, from, to).map((o) => ({ s, o })));
  const patients = new Map((await getPatientsByIds(auth.practiceId, [...new Set(expanded.map((e) => e.s.patientId))])).map((p) => [p.id, p]));
  const names = occurrenceNames(types, locations, users);
  const occurrences: AppointmentOccurrence[] = expanded
    .map(({ s, o }) => ({ ...occurrenceSummary(s, o, patients.get(s.patientId), names), series: s }))
    .sort((a, b) => a.start.localeCompare(b.start) || a.providerName.localeCompare(b.providerName));
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'APPOINTMENT', count: occurrences.length },
    occurrences.map((o) => o.patientId),
  );
  return { timeZone, occurrences };
}

/**
 * Where the patient of one occurrence is (Scheduled, Arrived, In room, Seen, No-show). Kept on the
 * series by day; Scheduled is kept as no entry. A stale `updatedAt` from the client is refused; a
 * change made meanwhile by another arrival update is read again and applied over it.
 */
export async function setArrival(auth: AuthContext, id: string, input: Parsed<typeof ArrivalInput>): Promise<AppointmentOccurrenceArrival> {
  for (let attempt = 0; ; attempt++) {
    const a = await requireAppointment(auth, id);
    const { timeZone } = await practiceCalendarSettings(auth.practiceId);
    if (!occursOn(a, input.occurrenceDay, timeZone)) throw new NotFoundError(M.notAnOccurrence);
    const arrivals = { ...a.arrivals };
    if (input.status === 'scheduled') delete arrivals[input.occurrenceDay];
    else arrivals[input.occurrenceDay] = input.status;
    const updatedAt = new Date(Math.max(Date.now(), Date.parse(a.updatedAt) + 1)).toISOString();
    try {
      await repo.updateArrivals(auth.practiceId, id, arrivals, a.updatedAt, updatedAt);
    } catch (error) {
      if (!isConditionFailure(error) || attempt >= 2) throw isConditionFailure(error) ? new ConflictError(M.changedElsewhere) : error;
      continue;
    }
    await writeAudit(auth, {
      action: 'update',
      entity: 'APPOINTMENT_ARRIVAL',
      entityId: id,
      patientId: a.patientId,
      detail: `${input.occurrenceDay} ${input.status}`,
    });
    return { appointmentId: id, occurrenceDay: input.occurrenceDay, arrivalStatus: input.status, updatedAt };
  }
}

/** The patient's next visits (the chart header): occurrences not yet over, soonest first, at most NEXT_VISITS_MAX. */
export async function upcomingVisits(auth: AuthContext, patientId: string, now = new Date()): Promise<UpcomingVisits> {
  const from = now;
  const to = new Date(now.getTime() + NEXT_VISITS_DAYS * DAY_MS);
  const [{ timeZone }, series, types, locations, users] = await Promise.all([
    practiceCalendarSettings(auth.practiceId),
    repo.listPatientAppointmentsFrom(auth.practiceId, patientId, from.toISOString(), to.toISOString()),
    repo.listAppointmentTypes(auth.practiceId),
    repo.listBookingLocations(auth.practiceId),
    listUsers(auth.practiceId),
  ]);
  const names = occurrenceNames(types, locations, users);
  const patient = series.length ? await getPatient(auth.practiceId, patientId) : null;
  const visits = series
    // Still ahead or under way (its end not passed): a patient in the room today still sees today's visit.
    .flatMap((s) =>
      expandOccurrences(s, timeZone, from, to)
        .filter((o) => o.end > from.toISOString())
        .slice(0, NEXT_VISITS_MAX)
        .map((o) => ({ s, o })),
    )
    .sort((x, y) => x.o.start.localeCompare(y.o.start))
    .slice(0, NEXT_VISITS_MAX)
    .map(({ s, o }) => occurrenceSummary(s, o, patient, names));
  await writeAudit(auth, { action: 'list', entity: 'APPOINTMENT', patientId, count: visits.length });
  return { timeZone, visits };
}

/** What names an occurrence's type, place and provider, looked up once per request. */
function occurrenceNames(
  types: { ident: string; name: string; color?: string | null }[],
  locations: { ident: string; name: string }[],
  users: { userId: string; name: string }[],
) {
  return {
    typeOf: new Map(types.map((t) => [t.ident, t])),
    locationOf: new Map(locations.map((l) => [l.ident, l])),
    userOf: new Map(users.map((u) => [u.userId, u])),
  };
}

/** One occurrence as the calendar and the chart header show it. */
function occurrenceSummary(
  s: Appointment,
  o: { day: string; start: string; end: string },
  patient: Parameters<typeof fullName>[0] | null | undefined,
  { typeOf, locationOf, userOf }: ReturnType<typeof occurrenceNames>,
) {
  const type = typeOf.get(s.appointmentTypeId);
  return {
    appointmentId: s.appointmentId,
    occurrenceDay: o.day,
    start: o.start,
    end: o.end,
    patientId: s.patientId,
    patientName: patient ? fullName(patient) : 'Unknown patient',
    providerId: s.providerId,
    providerName: userOf.get(s.providerId)?.name ?? 'Unknown provider',
    appointmentTypeId: s.appointmentTypeId,
    appointmentTypeName: type?.name ?? 'Appointment',
    color: type?.color ?? '#005377',
    bookingLocationId: s.bookingLocationId,
    bookingLocationName: s.bookingLocationId ? (locationOf.get(s.bookingLocationId)?.name ?? null) : null,
    visitType: s.visitType,
    recurring: s.recurrence.frequency !== 'Never',
    arrivalStatus: s.arrivals[o.day] ?? 'scheduled',
  };
}
