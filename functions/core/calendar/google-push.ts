/**
 * One-way push of appointments into their provider's linked Google Calendar (Calendar API v3
 * events: insert / patch / delete). Loaded with import() by the calls that book, change or cancel,
 * so none of it weighs on the practice group's cold start. A series is one recurring event (RRULE
 * and EXDATE); a changed occurrence is an appointment of its own and so an event of its own.
 * Google failing never fails the booking: the outcome is kept on the provider's link for their card.
 */
import { fullName } from '../../../shared/patients/patient-derived.js';
import { DEFAULT_TIME_ZONE, type Appointment } from '../../../shared/calendar/calendar-schema.js';
import { zonedParts, zonedToInstant, type Recurrence } from '../../../shared/calendar/recurrence.js';
import { canWriteEvents, GoogleCalendarClient, GoogleError, parseGoogleConfig, type GoogleEventBody } from '../../lib/adapters/google-calendar.js';
import { partnerSecretsFromEnv } from '../../lib/adapters/partner-secrets.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { log } from '../../lib/log.js';
import { getPatient } from '../../data/patients/patient-repository.js';
import * as repo from '../../data/calendar/calendar-repository.js';
import * as googleRepo from '../../data/google/google-repository.js';

export const GOOGLE_SYNC_REASONS = {
  linkLost: 'Google no longer accepts this link. Link Google Calendar again.',
  noEventsScope: 'This link only reads your calendars. Link Google Calendar again to let Tidewell add events.',
  calendarGone: 'The chosen Google calendar was not found. Choose another calendar.',
  notAllowed: 'Google did not allow adding events to the chosen calendar. Choose another calendar.',
  unavailable: 'Google Calendar did not answer.',
  notConfigured: 'Google Calendar is not set up for this practice.',
} as const;

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';
/**
 * The event's id in Google: the appointment id in base32hex (the alphabet Google allows for
 * client-chosen ids), so a retried insert names the same event and Google refuses a second copy.
 */
export function googleEventId(appointmentId: string): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of Buffer.from(appointmentId, 'utf8')) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const basicUtc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** RFC 5545 RRULE (as Google reads it) for a series' recurrence, or null for a single appointment. */
export function rrule(start: string, recurrence: Recurrence, timeZone: string): string | null {
  if (recurrence.frequency === 'Never') return null;
  const first = zonedParts(new Date(start), timeZone);
  const parts = [`FREQ=${recurrence.frequency.toUpperCase()}`];
  if (recurrence.interval > 1) parts.push(`INTERVAL=${recurrence.interval}`);
  if (recurrence.frequency === 'Weekly') parts.push(`BYDAY=${WEEKDAYS[new Date(Date.UTC(first.year, first.month - 1, first.day)).getUTCDay()]}`);
  if (recurrence.frequency === 'Monthly') {
    parts.push(
      recurrence.monthlyMode === 'BYDAY'
        ? `BYDAY=${recurrence.ordinal}${WEEKDAYS[new Date(Date.UTC(first.year, first.month - 1, first.day)).getUTCDay()]}`
        : `BYMONTHDAY=${first.day}`,
    );
  }
  if (recurrence.end === 'COUNT') parts.push(`COUNT=${recurrence.count}`);
  if (recurrence.end === 'ON' && recurrence.until) {
    // With a zoned start, RFC 5545 wants UNTIL in UTC: the last moment of the until day in the practice's zone.
    const [y, m, d] = recurrence.until.split('-').map(Number);
    parts.push(`UNTIL=${basicUtc(new Date(zonedToInstant({ year: y, month: m, day: d, hour: 23, minute: 59 }, timeZone).getTime() + 59_000))}`);
  }
  return `RRULE:${parts.join(';')}`;
}

/** EXDATE for the days taken out of a series, at the series' local start time in its zone. */
export function exdate(start: string, excludedDays: readonly string[], timeZone: string): string | null {
  if (!excludedDays.length) return null;
  const first = zonedParts(new Date(start), timeZone);
  const time = `T${pad(first.hour)}${pad(first.minute)}00`;
  return `EXDATE;TZID=${timeZone}:${[...excludedDays]
    .sort()
    .map((day) => `${day.replace(/-/g, '')}${time}`)
    .join(',')}`;
}

/** The event as Google gets it: the type, never notes; the patient's name only when the practice's feeds show names. */
export function googleEventBody(
  a: Pick<Appointment, 'appointmentId' | 'start' | 'durationMinutes' | 'recurrence' | 'excludedDays' | 'visitType'>,
  details: { typeName: string | null; location: string | null; patientName: string | null; timeZone: string },
): GoogleEventBody {
  const title = details.typeName ? `Appointment: ${details.typeName}` : 'Appointment';
  const recurrence = [
    rrule(a.start, a.recurrence, details.timeZone),
    a.recurrence.frequency === 'Never' ? null : exdate(a.start, a.excludedDays, details.timeZone),
  ].filter((line): line is string => Boolean(line));
  return {
    summary: details.patientName ? `${title} with ${details.patientName}` : title,
    location: a.visitType === 'virtual' || !details.location ? 'Virtual visit' : details.location,
    description: 'Booked in Tidewell. Open Tidewell for the details.',
    start: { dateTime: new Date(a.start).toISOString(), timeZone: details.timeZone },
    end: { dateTime: new Date(new Date(a.start).getTime() + a.durationMinutes * 60_000).toISOString(), timeZone: details.timeZone },
    recurrence,
    status: 'confirmed',
    extendedProperties: { private: { tidewellAppointmentId: a.appointmentId } },
  };
}

function reasonOf(error: unknown): string {
  if (!(error instanceof GoogleError)) return GOOGLE_SYNC_REASONS.unavailable;
  if (error.code === 'invalid_grant' || error.status === 401) return GOOGLE_SYNC_REASONS.linkLost;
  if (error.status === 404) return GOOGLE_SYNC_REASONS.calendarGone;
  if (error.status === 403) return GOOGLE_SYNC_REASONS.notAllowed;
  if (error.status >= 500) return GOOGLE_SYNC_REASONS.unavailable;
  return `Google refused the event (${error.status} ${error.code}).`;
}

class SyncProblem extends Error {}

/**
 * Brings each appointment's Google event in line with the table: written where its provider's
 * link points, patched in place when already there, moved when the provider or chosen calendar
 * changed, deleted when the appointment is gone. Safe to run twice.
 */
export async function pushAppointmentsToGoogle(auth: AuthContext, appointmentIds: readonly string[]): Promise<void> {
  const { practiceId } = auth;
  // The OAuth client is read only once a linked provider is involved: most bookings have none.
  let client: Promise<GoogleCalendarClient | null> | null = null;
  const googleClient = () =>
    (client ??= partnerSecretsFromEnv()
      .secretOf('google')
      .then((text) => {
        const config = parseGoogleConfig(text);
        return config ? new GoogleCalendarClient(config) : null;
      }));
  const links = new Map<string, Promise<repo.GoogleLinkItem | null>>();
  const linkOf = (userId: string) => links.get(userId) ?? links.set(userId, repo.getGoogleLink(practiceId, userId)).get(userId)!;
  const tokens = new Map<string, Promise<string>>();
  const outcome = new Map<string, string | null>();

  async function accessToken(userId: string): Promise<string> {
    const link = await linkOf(userId);
    const google = await googleClient();
    if (!google) throw new SyncProblem(GOOGLE_SYNC_REASONS.notConfigured);
    if (!link?.refreshToken) throw new SyncProblem(GOOGLE_SYNC_REASONS.linkLost);
    if (!tokens.has(userId))
      tokens.set(
        userId,
        google.refresh(link.refreshToken).then((t) => t.accessToken),
      );
    return tokens.get(userId)!;
  }

  /**
   * A change saved while the event was being written (another user, or a provider-wide resync
   * beside a booking) could leave Google with the older version: the appointment is read again
   * after the write and, if it moved on, written again.
   */
  async function converge(appointmentId: string): Promise<void> {
    for (let round = 0; round < 3; round++) {
      const seen = await one(appointmentId);
      // Nothing written (no link, or Google refused): nothing that could be stale, and no second read.
      if (seen === null) return;
      const now = await repo.getAppointment(practiceId, appointmentId);
      if ((now?.updatedAt ?? null) === seen) return;
    }
  }

  /**
   * Whether the provider unlinked (or linked again) since this pass read their link. Read again
   * after each write: a provider-wide pass can run for a while, and what it writes once the link
   * is gone must not stay in Google. Later appointments then see the link as it is now.
   */
  async function unlinkedMeanwhile(userId: string, refreshToken: string): Promise<boolean> {
    const now = await repo.getGoogleLink(practiceId, userId);
    if (now?.refreshToken === refreshToken) return false;
    links.set(userId, Promise.resolve(now));
    return true;
  }

  /** Writes one appointment's event; answers the version it wrote, or null when it wrote none. */
  async function one(appointmentId: string): Promise<string | null> {
    const [a, mapped] = await Promise.all([repo.getAppointment(practiceId, appointmentId), googleRepo.getGoogleEvent(practiceId, appointmentId)]);
    const link = a ? await linkOf(a.providerId) : null;
    const target = a && link?.refreshToken ? { userId: a.providerId, calendarId: link.calendarId ?? 'primary', refreshToken: link.refreshToken } : null;
    if (a && link?.refreshToken && !canWriteEvents(link.scopes)) {
      outcome.set(a.providerId, GOOGLE_SYNC_REASONS.noEventsScope);
      return null;
    }
    let patchable = Boolean(mapped && target && mapped.userId === target.userId && mapped.calendarId === target.calendarId);
    // Written under a link since removed: the unlink's cleanup (google-resync.ts) deletes it with the token it kept.
    if (mapped && !patchable && (await linkOf(mapped.userId))?.refreshToken) {
      try {
        await (await googleClient())?.deleteEvent(await accessToken(mapped.userId), mapped.calendarId, mapped.eventId);
        await googleRepo.deleteGoogleEvent(practiceId, appointmentId);
        outcome.set(mapped.userId, outcome.get(mapped.userId) ?? null);
      } catch (error) {
        outcome.set(mapped.userId, error instanceof SyncProblem ? error.message : reasonOf(error));
        if (!target) return null;
      }
    }
    if (!a || !target) return null;
    try {
      const token = await accessToken(target.userId);
      const google = (await googleClient())!;
      const body = await eventBody(a);
      const eventId = mapped && patchable ? mapped.eventId : googleEventId(appointmentId);
      if (patchable) {
        try {
          await google.patchEvent(token, target.calendarId, eventId, body);
        } catch (error) {
          // Deleted at Google meanwhile: written again under the same id below.
          if (!(error instanceof GoogleError && (error.status === 404 || error.status === 410))) throw error;
          patchable = false;
        }
      }
      if (!patchable) {
        try {
          await google.insertEvent(token, target.calendarId, eventId, body);
        } catch (error) {
          // Written by an earlier try (or deleted there once): the id is ours, so the event is brought up to date.
          if (!(error instanceof GoogleError && error.status === 409)) throw error;
          await google.patchEvent(token, target.calendarId, eventId, body);
        }
      }
      const written = { appointmentId, userId: target.userId, calendarId: target.calendarId, eventId, syncedAt: new Date().toISOString() };
      await googleRepo.putGoogleEvent(practiceId, written);
      if (await unlinkedMeanwhile(target.userId, target.refreshToken)) {
        // The unlink's cleanup takes out what was written before it; this was written after, so it is taken out here.
        try {
          await google.deleteEvent(token, target.calendarId, eventId);
        } catch (error) {
          if (!(error instanceof GoogleError && (error.status === 404 || error.status === 410))) throw error;
        }
        await googleRepo.deleteGoogleEventIf(practiceId, written);
        return null;
      }
      outcome.set(target.userId, outcome.get(target.userId) ?? null);
      return a.updatedAt;
    } catch (error) {
      outcome.set(target.userId, error instanceof SyncProblem ? error.message : reasonOf(error));
      return null;
    }
  }

  let settings: Promise<{ timeZone: string; googleShowsNames: boolean }> | null = null;
  async function eventBody(a: Appointment): Promise<GoogleEventBody> {
    settings ??= repo.getPracticeCalendarSettings(practiceId).then((stored) => stored ?? { timeZone: DEFAULT_TIME_ZONE, googleShowsNames: false });
    const { timeZone, googleShowsNames } = await settings;
    const [type, location, patient] = await Promise.all([
      repo.getAppointmentType(practiceId, a.appointmentTypeId),
      a.bookingLocationId ? repo.getBookingLocation(practiceId, a.bookingLocationId) : Promise.resolve(null),
      googleShowsNames ? getPatient(practiceId, a.patientId) : Promise.resolve(null),
    ]);
    // The name leaves Tidewell for the provider's Google account: that is an access to the patient's record.
    if (patient) await writeAudit(auth, { action: 'read', entity: 'GOOGLE_CALENDAR_EVENT', entityId: a.appointmentId, patientId: a.patientId });
    return googleEventBody(a, {
      typeName: type?.name ?? null,
      location: location ? [location.name, location.address].filter(Boolean).join(', ') : null,
      patientName: patient ? fullName(patient) : null,
      timeZone,
    });
  }

  for (const id of appointmentIds) await converge(id);
  const now = new Date().toISOString();
  for (const [userId, problem] of outcome) {
    if (problem) log.warn('google calendar push failed', { userId, reason: problem });
    await googleRepo.updateGoogleLink(practiceId, userId, { lastSyncAt: now, lastSyncError: problem });
  }
}
