import {
  AppointmentInput,
  CALENDAR_MESSAGES as M,
  type Appointment,
  type AppointmentType,
  type BookingLocation,
} from '../../../shared/calendar/calendar-schema.js';
import type { FhirImportItem } from '../../../shared/chart/fhir.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { HttpError, NotFoundError } from '../../lib/errors.js';
import { markedAppointmentId, recordMarkedAppointment, releaseImportMarker } from '../../data/fhir-import/import-markers.js';
import { cancelAppointment, describeSlot, firstClash, practiceCalendarSettings, saveAppointment } from '../calendar/appointment-booking.js';
import { listAppointmentTypes, listBookingLocations } from '../../data/calendar/calendar-repository.js';
import { listUsers, type PracticeUser } from '../../data/users/user-repository.js';
import { OCCURRENCE_EXTENSION, RECURRENCE_EXTENSION } from './appointments.js';
import { SYSTEMS } from './fhir-core.js';
import { day as dayOf } from './import-plan/read.js';
import { zonedParts } from '../../../shared/calendar/recurrence.js';

/*
 * FHIR Appointments into the importing practice's calendar, through the calendar's own use cases
 * (its checks, double booking included, and its audit). The provider, type and location are this
 * practice's own, found by what the bundle says of them; what cannot be found is left out saying so.
 * A series comes in as a series with its rule (Tidewell's extension); an occurrence changed or
 * cancelled alone is taken out of the series it names, as the calendar does it.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Input = ReturnType<typeof AppointmentInput.parse>;

export interface PlannedAppointment {
  kind: 'appointment';
  input?: Input;
  /** One occurrence of a series: the series' import key, its day, and whether it was cancelled. */
  occurrence?: { seriesKey: string; day: string; cancelled: boolean };
  providerName?: string;
  /** When the source booked it (Appointment.created): a restored calendar keeps it. */
  createdAt?: string;
}

/** What analyse() keeps of each resource: the preview's item plus what the import needs. */
export interface AppointmentItem extends FhirImportItem {
  key: string;
  resource: Json;
  planned?: { kind: string };
}

const NOT_BOOKED: Record<string, string> = {
  proposed: 'The appointment was never booked',
  pending: 'The appointment was never booked',
  waitlist: 'The appointment was never booked',
  noshow: 'The patient did not come (no-show), which the calendar does not record',
  'entered-in-error': 'The appointment was entered in error',
  cancelled: 'The appointment was cancelled',
};

const lower = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');
const sub = (ext: Json | undefined, url: string): Json | undefined => (ext?.extension as Json[] | undefined)?.find((e) => e.url === url);

function personName(p: Json | undefined, display?: string): string {
  const n = (p?.name as Json[] | undefined)?.[0];
  return n?.text || [...(n?.given ?? []), n?.family].filter(Boolean).join(' ') || display || 'without a name';
}

/** The practice's provider for a Practitioner: by NPI, then email, then exact name. */
function matchUser(users: PracticeUser[], p: Json | undefined, display?: string): PracticeUser | undefined {
  const bookable = users.filter((u) => u.userStatus !== 'deleted' && u.permissionGroup !== 'no_access');
  const npi = (p?.identifier as Json[] | undefined)?.find((i) => i.system === SYSTEMS.npi)?.value;
  const emails = ((p?.telecom as Json[] | undefined) ?? []).filter((t) => t.system === 'email').map((t) => lower(t.value));
  const name = personName(p, display);
  return (
    (npi ? bookable.find((u) => u.npiNumber === npi) : undefined) ??
    bookable.find((u) => u.emailAddress && emails.includes(lower(u.emailAddress))) ??
    bookable.find((u) => u.name === name || `${u.firstName} ${u.lastName}` === name)
  );
}

/** The rule of a series as the calendar takes it, from Tidewell's extension. */
function recurrenceOf(r: Json): Json | undefined {
  const ext = (r.extension as Json[] | undefined)?.find((e) => e.url === RECURRENCE_EXTENSION);
  if (!ext) return undefined;
  const v = (url: string) => {
    const e = sub(ext, url);
    return e?.valueCode ?? e?.valuePositiveInt ?? e?.valueInteger ?? e?.valueDate;
  };
  return Object.fromEntries(
    Object.entries({
      frequency: v('frequency'),
      interval: v('interval'),
      monthlyMode: v('monthlyMode'),
      ordinal: v('ordinal'),
      end: v('end'),
      count: v('count'),
      until: v('until'),
    }).filter(([, x]) => x !== undefined),
  );
}

export interface Directory {
  users: PracticeUser[];
  types: AppointmentType[];
  locations: BookingLocation[];
  timeZone: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD of an instant in the practice's zone, as the calendar names an occurrence's day. */
function zonedDay(instant: string, timeZone: string): string {
  const p = zonedParts(new Date(instant), timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** What one Appointment becomes in this practice's calendar, or why it is left out. */
export function planAppointment(
  r: Json,
  patientId: string,
  resolve: (ref: unknown) => Json | undefined,
  importKeyOf: (r: Json) => string,
  dir: Directory,
): { planned?: PlannedAppointment; summary: string; reason?: string } {
  const actors = ((r.participant as Json[] | undefined) ?? []).map((p) => ({ ref: p.actor, resource: resolve(p.actor?.reference) }));
  const practitioner = actors.find((a) => a.resource?.resourceType === 'Practitioner' || String(a.ref?.reference ?? '').startsWith('Practitioner/'));
  const location = actors.find((a) => a.resource?.resourceType === 'Location' || String(a.ref?.reference ?? '').startsWith('Location/'));
  const providerName = practitioner ? personName(practitioner.resource, practitioner.ref?.display) : undefined;
  const typeName: string | undefined = r.appointmentType?.text || r.appointmentType?.coding?.find((c: Json) => c.display)?.display;
  const start = typeof r.start === 'string' && !Number.isNaN(Date.parse(r.start)) ? r.start : undefined;
  const occurrenceExt = (r.extension as Json[] | undefined)?.find((e) => e.url === OCCURRENCE_EXTENSION);
  const cancelledOccurrence = Boolean(occurrenceExt) && r.status === 'cancelled';
  const summary = `${cancelledOccurrence ? 'Cancelled appointment' : 'Appointment'}: ${typeName ?? 'Visit'}${start ? ` on ${dayOf(start)}` : ''}${providerName ? ` with ${providerName}` : ''}${r.description ? ` (${r.description})` : ''}`;
  if (NOT_BOOKED[r.status] && !cancelledOccurrence) return { summary, reason: NOT_BOOKED[r.status] };
  if (!start) return { summary, reason: M.startRequired };
  if (!practitioner) return { summary, reason: 'It names no provider' };
  const user = matchUser(dir.users, practitioner.resource, practitioner.ref?.display);
  if (!user) return { summary, reason: `No user of this practice matches the provider ${providerName}` };
  const active = dir.types.filter((t) => t.status === 'active');
  const type = active.find((t) => lower(t.name) === lower(typeName)) ?? active[0];
  if (!type) return { summary, reason: 'This practice has no active appointment type' };
  // A type this practice does not have is booked as its first one, and the preview says which.
  const shown = lower(type.name) === lower(typeName) ? summary : `${summary}, booked as ${type.name}`;
  const virtual = ((r.serviceType as Json[] | undefined) ?? []).some((s) => /virtual/i.test(s.text ?? s.coding?.[0]?.display ?? ''));
  const locationName = location ? (location.resource?.name ?? location.ref?.display) : undefined;
  const place = locationName ? dir.locations.find((l) => l.status === 'active' && lower(l.name) === lower(locationName)) : undefined;
  if (!virtual && !locationName) return { summary: shown, reason: M.locationRequired };
  if (!virtual && !place) return { summary: shown, reason: `No booking location of this practice is named ${locationName}` };
  const end = typeof r.end === 'string' ? Date.parse(r.end) : NaN;
  const durationMinutes = Number.isInteger(r.minutesDuration)
    ? r.minutesDuration
    : Number.isNaN(end)
      ? undefined
      : Math.round((end - Date.parse(start)) / 60_000);
  const parsed = AppointmentInput.safeParse({
    patientId,
    appointmentTypeId: type.ident,
    providerId: user.userId,
    bookingLocationId: place?.ident ?? null,
    visitType: virtual ? 'virtual' : 'in_person',
    start: new Date(start).toISOString(),
    durationMinutes,
    ...(occurrenceExt ? {} : { recurrence: recurrenceOf(r) }),
    notes: typeof r.comment === 'string' ? r.comment : '',
  });
  if (!parsed.success) return { summary: shown, reason: parsed.error.issues[0]?.message ?? 'Not valid' };
  let occurrence: PlannedAppointment['occurrence'];
  if (occurrenceExt) {
    const series = resolve(sub(occurrenceExt, 'series')?.valueReference?.reference);
    // The source's day is in its own zone; where the occurrence's instant is given, this practice's zone names the day.
    const originalStart = sub(occurrenceExt, 'originalStart')?.valueDateTime;
    const day =
      typeof originalStart === 'string' && !Number.isNaN(Date.parse(originalStart))
        ? zonedDay(originalStart, dir.timeZone)
        : sub(occurrenceExt, 'day')?.valueDate;
    if (!series || typeof day !== 'string') return { summary: shown, reason: 'Its series is not in the bundle' };
    occurrence = { seriesKey: importKeyOf(series), day, cancelled: cancelledOccurrence };
  }
  const createdAt = typeof r.created === 'string' && !Number.isNaN(Date.parse(r.created)) ? new Date(r.created).toISOString() : undefined;
  return { summary: shown, planned: { kind: 'appointment', input: parsed.data, occurrence, providerName: user.name, ...(createdAt ? { createdAt } : {}) } };
}

/**
 * Fills in the plan of every Appointment of the bundle (import-plan's dispatch only marks them):
 * matched to this practice's provider, type and location, checked against its calendar.
 */
export async function planAppointments(
  practiceId: string,
  patientId: string,
  items: AppointmentItem[],
  entries: readonly { fullUrl?: string; resource: Json }[],
  importKeyOf: (r: Json) => string,
): Promise<void> {
  const mine = items.filter((i) => i.resourceType === 'Appointment');
  if (mine.length === 0) return;
  const [users, types, locations, { timeZone }] = await Promise.all([
    listUsers(practiceId),
    listAppointmentTypes(practiceId),
    listBookingLocations(practiceId),
    practiceCalendarSettings(practiceId),
  ]);
  const dir: Directory = { users, types, locations, timeZone };
  const byRef = new Map<string, Json>();
  for (const e of entries) {
    if (e.fullUrl) byRef.set(e.fullUrl, e.resource);
    if (typeof e.resource.id === 'string') byRef.set(`${String(e.resource.resourceType)}/${e.resource.id}`, e.resource);
  }
  const resolve = (ref: unknown) => (typeof ref === 'string' ? byRef.get(ref) : undefined);
  const byKey = new Map(mine.map((i) => [i.key, i]));
  const leaveOut = (item: AppointmentItem, summary: string, reason: string) => Object.assign(item, { summary, action: 'skip', reason, planned: undefined });
  for (const item of mine) {
    const p = planAppointment(item.resource, patientId, resolve, importKeyOf, dir);
    // One an earlier import booked stays "already here", even if it could not be booked now (a type since made inactive).
    if (p.reason && item.action !== 'present') leaveOut(item, p.summary, p.reason);
    else Object.assign(item, { summary: p.summary, planned: p.planned });
  }
  // What the calendar would refuse now is left out in the preview already, in the calendar's words.
  for (const item of mine) {
    const p = item.planned as PlannedAppointment | undefined;
    // An occurrence is checked by the import itself, against its series without that day.
    if (item.action !== 'add' || !p?.input || p.occurrence) continue;
    const candidate: Appointment = {
      appointmentId: `fhir-import-${item.key}`,
      ...p.input,
      excludedDays: takenOut(mine, item.key),
      detachedFrom: null,
      arrivals: {},
      createdBy: '',
      createdAt: '',
      updatedAt: '',
    };
    const clash = await firstClash(practiceId, candidate, timeZone);
    if (clash) leaveOut(item, item.summary, M.doubleBooked(p.providerName ?? 'The provider', describeSlot(clash, timeZone)));
  }
  // An occurrence goes with its series: not without it.
  for (const item of mine) {
    const p = item.planned as PlannedAppointment | undefined;
    if (!p?.occurrence || item.action === 'skip') continue;
    const series = byKey.get(p.occurrence.seriesKey);
    if (!series || series.action === 'skip') leaveOut(item, item.summary, 'Its series is left out');
  }
}

/** The days a series' own occurrences in the bundle take out of it: booked with it already gone, so they are not checked twice. */
function takenOut(items: readonly AppointmentItem[], seriesKey: string): string[] {
  return items.flatMap((i) => {
    const occurrence = (i.planned as PlannedAppointment | undefined)?.occurrence;
    return i.action === 'add' && occurrence?.seriesKey === seriesKey ? [occurrence.day] : [];
  });
}

/** How the import marks what it brought in (import-chart's marker, written before what it makes). */
export interface Markers {
  claim: (item: AppointmentItem) => Promise<boolean>;
}

/**
 * Books what planAppointments() kept, series before the occurrences taken out of them. Each claims
 * its marker first and records the appointment it made on it, so an occurrence imported later finds
 * its series; what the calendar refuses now gives its marker back and is left out with the reason.
 */
export async function importAppointments(auth: AuthContext, patientId: string, items: AppointmentItem[], markers: Markers): Promise<number> {
  const ordered = [...items.filter((i) => !(i.planned as PlannedAppointment).occurrence), ...items.filter((i) => (i.planned as PlannedAppointment).occurrence)];
  const made = new Map<string, string>();
  const refused = new Set<string>();
  let added = 0;
  for (const item of ordered) {
    const p = item.planned as PlannedAppointment;
    if (item.action !== 'add' || !p.input) continue;
    if (p.occurrence && refused.has(p.occurrence.seriesKey)) {
      Object.assign(item, { action: 'skip', reason: 'Its series is left out' });
      continue;
    }
    if (!(await markers.claim(item))) continue;
    try {
      let appointmentId: string | undefined;
      if (p.occurrence) {
        const bookedNow = made.get(p.occurrence.seriesKey);
        const seriesId = bookedNow ?? (await markedAppointmentId(auth.practiceId, patientId, p.occurrence.seriesKey));
        if (!seriesId) throw new NotFoundError("Its series is not in this practice's calendar");
        if (bookedNow) {
          // The series was booked just now with this day already out of it: a cancelled day needs nothing more.
          if (!p.occurrence.cancelled)
            appointmentId = (
              await saveAppointment(auth, null, p.input, undefined, {
                excludedDays: [],
                detachedFrom: { appointmentId: seriesId, occurrenceDay: p.occurrence.day },
                createdAt: p.createdAt,
              })
            ).appointmentId;
        } else if (p.occurrence.cancelled) await cancelAppointment(auth, seriesId, p.occurrence.day);
        else appointmentId = (await saveAppointment(auth, seriesId, p.input, p.occurrence.day)).appointmentId;
      } else {
        appointmentId = (
          await saveAppointment(auth, null, p.input, undefined, { excludedDays: takenOut(items, item.key), detachedFrom: null, createdAt: p.createdAt })
        ).appointmentId;
      }
      if (appointmentId) {
        made.set(item.key, appointmentId);
        await recordMarkedAppointment(auth.practiceId, patientId, item.key, appointmentId);
      }
      added++;
    } catch (error) {
      await releaseImportMarker(auth.practiceId, patientId, item.key);
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      refused.add(item.key);
      Object.assign(item, { action: 'skip', reason: error.message });
    }
  }
  return added;
}
