/**
 * A provider's calendar as an ICS feed (RFC 5545) a phone's calendar subscribes to. The URL's
 * token is the credential: `<feedId>.<secret>`, the secret stored only as its SHA-256 and compared
 * in constant time. The feed names no patient unless the practice turned names on.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { CALENDAR_MESSAGES as M, FEED_DAYS_AHEAD, FEED_DAYS_BACK, FeedTokenParams } from '../../shared/calendar/calendar-schema.js';
import type { CalendarFeedStatus } from '../../shared/calendar/calendar-responses.js';
import { expandOccurrences } from '../../shared/calendar/recurrence.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import { writeAudit, writeAuditForPatients } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ForbiddenError, NotFoundError } from '../lib/errors.js';
import { greedyRouteResolver, httpErrorMapper, type HttpEvent } from '../lib/http/group-handler.js';
import { originOf, withRequestOrigin } from '../lib/http/request-context.js';
import { parseOrThrow } from '../lib/http/zod-errors.js';
import { getPatientsByIds } from '../data/patients/patient-repository.js';
import { practiceCalendarSettings } from '../core/calendar/appointment-booking.js';
import * as repo from '../data/calendar/calendar-repository.js';
import { CALENDAR_FEED_ROUTES } from './routes.js';
import { getUser } from '../data/users/user-repository.js';

const DAY_MS = 86_400_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function ownFeedOnly(auth: AuthContext, userId: string, adminToo: boolean) {
  if (userId === auth.userId) return;
  if (adminToo && auth.role === 'admin') return;
  throw new ForbiddenError('Only the provider manages their own calendar feed');
}

export async function feedStatus(auth: AuthContext, userId: string): Promise<CalendarFeedStatus> {
  ownFeedOnly(auth, userId, true);
  const feed = await repo.getCalendarFeed(auth.practiceId, userId);
  return { active: Boolean(feed), createdAt: feed?.createdAt ?? null };
}

/** Makes the user's feed, replacing any earlier one (whose URL stops working); the URL is shown this once. */
export async function createFeed(auth: AuthContext, userId: string): Promise<CalendarFeedStatus> {
  ownFeedOnly(auth, userId, false);
  const feedId = randomBytes(12).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  const createdAt = new Date().toISOString();
  await repo.putCalendarFeed(auth.practiceId, { userId, feedId, secretHash: sha256(secret), createdAt });
  await writeAudit(auth, { action: 'create', entity: 'CALENDAR_FEED', entityId: userId });
  return { active: true, createdAt, path: `/v1/calendar-feeds/${feedId}.${secret}.ics` };
}

export async function revokeFeed(auth: AuthContext, userId: string): Promise<CalendarFeedStatus> {
  ownFeedOnly(auth, userId, true);
  if (!(await repo.getCalendarFeed(auth.practiceId, userId))) throw new NotFoundError(M.feedNotFound);
  await repo.deleteCalendarFeed(auth.practiceId, userId);
  await writeAudit(auth, { action: 'delete', entity: 'CALENDAR_FEED', entityId: userId });
  return { active: false, createdAt: null };
}

/** RFC 5545 TEXT: backslash, semicolon, comma and newlines escaped. */
const text = (value: string) => value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
/** Lines longer than 75 octets fold onto continuation lines that start with a space. */
function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let cut = 75;
    while (Buffer.byteLength(rest.slice(0, cut)) > 75) cut--;
    out.push(rest.slice(0, cut));
    rest = ` ${rest.slice(cut)}`;
  }
  out.push(rest);
  return out.join('\r\n');
}

/** The provider's appointments from two weeks back to 90 days ahead, as an iCalendar document. */
export async function feedCalendar(practiceId: string, feedToken: string, now = new Date()): Promise<string> {
  const [feedId, secret] = feedToken.replace(/\.ics$/, '').split('.');
  const feed = await repo.findCalendarFeed(practiceId, feedId);
  const given = Buffer.from(sha256(secret ?? ''), 'hex');
  const expected = Buffer.from(feed?.secretHash ?? '', 'hex');
  if (!feed || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new NotFoundError(M.feedNotFound);
  const user = await getUser(practiceId, feed.userId);
  if (!user || user.userStatus === 'deleted' || user.permissionGroup === 'no_access') throw new NotFoundError(M.feedNotFound);

  const from = new Date(now.getTime() - FEED_DAYS_BACK * DAY_MS);
  const to = new Date(now.getTime() + FEED_DAYS_AHEAD * DAY_MS);
  const [settings, series, types, locations] = await Promise.all([
    practiceCalendarSettings(practiceId),
    repo.listAppointmentsInRange(practiceId, from.toISOString(), to.toISOString(), feed.userId),
    repo.listAppointmentTypes(practiceId),
    repo.listBookingLocations(practiceId),
  ]);
  const typeOf = new Map(types.map((t) => [t.ident, t.name]));
  const locationOf = new Map(locations.map((l) => [l.ident, l.name]));
  const names = settings.feedShowsNames
    ? new Map((await getPatientsByIds(practiceId, [...new Set(series.map((s) => s.patientId))])).map((p) => [p.id, fullName(p)]))
    : null;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Tidewell//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(`Tidewell – ${user.name}`)}`,
    `X-WR-TIMEZONE:${settings.timeZone}`,
  ];
  const listed: string[] = [];
  for (const s of series) {
    const type = typeOf.get(s.appointmentTypeId) ?? 'Appointment';
    const patient = names?.get(s.patientId);
    for (const o of expandOccurrences(s, settings.timeZone, from, to)) {
      listed.push(s.patientId);
      lines.push(
        'BEGIN:VEVENT',
        `UID:${s.appointmentId}-${o.day}@tidewell`,
        `DTSTAMP:${stamp(s.updatedAt)}`,
        `DTSTART:${stamp(o.start)}`,
        `DTEND:${stamp(o.end)}`,
        `SUMMARY:${text(patient ? `${patient} – ${type}` : type)}`,
        `LOCATION:${text(s.visitType === 'virtual' ? 'Virtual visit' : (s.bookingLocationId && locationOf.get(s.bookingLocationId)) || 'In person')}`,
        'END:VEVENT',
      );
    }
  }
  lines.push('END:VCALENDAR');
  // A feed that names patients is a read of their data by the provider it belongs to.
  const auth: AuthContext = {
    practiceId,
    userId: user.userId,
    email: user.emailAddress ?? '',
    name: user.name,
    role: user.permissionGroup === 'admin' ? 'admin' : user.permissionGroup === 'provider' ? 'provider' : 'employee',
    groups: [],
  };
  await (names
    ? writeAuditForPatients(auth, { action: 'list', entity: 'CALENDAR_FEED', entityId: feed.userId, count: listed.length }, listed)
    : writeAudit(auth, { action: 'list', entity: 'CALENDAR_FEED', entityId: feed.userId, count: listed.length }));
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** The feed route's Lambda entry inside the practice group: registered without the JWT authorizer. */
const feedHandler = middy<HttpEvent, APIGatewayProxyResultV2>()
  .use(httpErrorMapper())
  .use(greedyRouteResolver(CALENDAR_FEED_ROUTES))
  .handler(async (event) => {
    const practiceId = process.env.PRACTICE_ID;
    if (!practiceId) throw new Error('PRACTICE_ID is not set');
    const params = parseOrThrow(FeedTokenParams, event.pathParameters ?? {}, 'path');
    const body = await feedCalendar(practiceId, params.feedToken);
    return { statusCode: 200, headers: { 'content-type': 'text/calendar; charset=utf-8', 'cache-control': 'private, max-age=300' }, body };
  });

export const handleFeed = (event: HttpEvent, context: Context) => withRequestOrigin(originOf(event), () => feedHandler(event, context));
