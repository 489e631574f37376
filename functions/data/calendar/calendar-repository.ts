import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Appointment, AppointmentType, BookingLocation, PracticeCalendarSettings, UserCalendarSettings } from '../../../shared/calendar/calendar-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { unchangedSince } from '../../lib/table/put-if-unchanged.js';
import { queryAll } from '../../lib/table/query-all.js';
import { parseItem, type Item } from '../../lib/table/item.js';

/*
 * Calendar items, pk practiceId (docs/access-patterns.md):
 *   appointment type      sk APPT_TYPE#<ident>
 *   booking location      sk BOOKING_LOCATION#<ident>
 *   user's settings       sk CALENDAR_SETTINGS#USER#<userId>
 *   practice's settings   sk CALENDAR_SETTINGS#PRACTICE   { timeZone }
 *   appointment series    sk APPOINTMENT#<appointmentId>  { providerId, start, seriesEnd? }
 *                         gsi1 APPOINTMENTS#<practiceId>, gsi1sk <seriesEnd|9999…>#<id>: the calendar's range
 *                         reads start at the range's first instant, so past series are never read;
 *                         gsi2 the same per provider (APPOINTMENTS#<practiceId>#<providerId>).
 *   provider's booking    sk APPTSTART#<providerId>#<start>#<appointmentId> (one occurrence) or
 *   copy                  APPTSERIES#<providerId>#<seriesEnd|9999…>#<appointmentId> (a repeating series): a
 *                         copy of the series in the table itself, written in the booking's transaction (the
 *                         series names it in `conflictSk`), so the double-booking check reads, consistently,
 *                         only the provider's appointments near the new one's window and the repeating
 *                         series still running then. CALENDAR_KEYS#PROVIDER marks a practice whose older
 *                         appointments have their copy (backfillProviderAppointmentKeys).
 *   patient's copy        sk APPTPATIENT#<patientId>#ONCE#<start>#<appointmentId> or
 *                         APPTPATIENT#<patientId>#SERIES#<seriesEnd|9999…>#<appointmentId>: the same copy under
 *                         the patient (the series names it in `patientSk`), so the chart header's next visits
 *                         read the patient's coming ones only. CALENDAR_KEYS#PATIENT marks a practice whose
 *                         older appointments have it (backfillPatientAppointmentKeys).
 *   provider's booking    sk CALENDAR_LOCK#<providerId>   { version }: every booking of a provider
 *                         bumps it in the same transaction, so two bookings checked against the
 *                         same calendar cannot both be written (double booking stays refused).
 */
export const appointmentTypeKey = (ident: string) => `APPT_TYPE#${ident}`;
export const bookingLocationKey = (ident: string) => `BOOKING_LOCATION#${ident}`;
export const userCalendarSettingsKey = (userId: string) => `CALENDAR_SETTINGS#USER#${userId}`;
export const PRACTICE_CALENDAR_SETTINGS_KEY = 'CALENDAR_SETTINGS#PRACTICE';
export const appointmentKey = (id: string) => `APPOINTMENT#${id}`;
export const providerLockKey = (providerId: string) => `CALENDAR_LOCK#${providerId}`;
/** A provider's ICS feed: { feedId, secretHash (SHA-256 hex of the URL's secret), createdAt }; one per user. */
export const calendarFeedKey = (userId: string) => `CALENDAR_FEED#${userId}`;

export interface CalendarFeedItem {
  userId: string;
  feedId: string;
  secretHash: string;
  createdAt: string;
}
export async function getCalendarFeed(practiceId: string, userId: string): Promise<CalendarFeedItem | null> {
  const item = await getItem(practiceId, calendarFeedKey(userId));
  return item ? { userId: String(item.userId), feedId: String(item.feedId), secretHash: String(item.secretHash), createdAt: String(item.createdAt) } : null;
}
/** The feed whose URL names `feedId` (a practice has a handful, one per provider who made one). */
export async function findCalendarFeed(practiceId: string, feedId: string): Promise<CalendarFeedItem | null> {
  const items = await byPrefix(practiceId, 'CALENDAR_FEED#', { FilterExpression: 'feedId = :f', ExpressionAttributeValues: { ':f': feedId } });
  const item = items[0];
  return item ? { userId: String(item.userId), feedId: String(item.feedId), secretHash: String(item.secretHash), createdAt: String(item.createdAt) } : null;
}
export const putCalendarFeed = (practiceId: string, feed: CalendarFeedItem) => put(practiceId, calendarFeedKey(feed.userId), 'CALENDAR_FEED', feed);
export const deleteCalendarFeed = (practiceId: string, userId: string) =>
  documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: calendarFeedKey(userId) } }));

export const googleLinkKey = (userId: string) => `GOOGLE_LINK#${userId}`;
/**
 * A user's Google Calendar link. `pendingStateHash` is the SHA-256 of the `state` their last
 * consent url carried (the browser never sees the hash); `refreshToken` is Google's, read only here.
 */
export interface GoogleLinkItem {
  userId: string;
  pendingStateHash: string | null;
  pendingSince: string | null;
  refreshToken: string | null;
  scopes: string[];
  linkedAt: string | null;
  /** The Google calendar the user's appointments are written to ('primary' until they choose). */
  calendarId?: string;
  /** When appointments were last written to Google, and why the last write failed (null when it worked). */
  lastSyncAt?: string | null;
  lastSyncError?: string | null;
}
export async function getGoogleLink(practiceId: string, userId: string): Promise<GoogleLinkItem | null> {
  const item = await getItem(practiceId, googleLinkKey(userId));
  if (!item) return null;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    userId: String(item.userId),
    pendingStateHash: text(item.pendingStateHash),
    pendingSince: text(item.pendingSince),
    refreshToken: text(item.refreshToken),
    scopes: Array.isArray(item.scopes) ? item.scopes.map(String) : [],
    linkedAt: text(item.linkedAt),
    calendarId: text(item.calendarId) ?? 'primary',
    lastSyncAt: text(item.lastSyncAt),
    lastSyncError: text(item.lastSyncError),
  };
}
export const putGoogleLink = (practiceId: string, link: GoogleLinkItem) => put(practiceId, googleLinkKey(link.userId), 'GOOGLE_LINK', link);
/** Takes the pending state only if it is still the one given, so one consent answer links once. */
export async function claimGoogleState(practiceId: string, userId: string, stateHash: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: googleLinkKey(userId) },
        UpdateExpression: 'SET pendingStateHash = :none, pendingSince = :none',
        ConditionExpression: 'pendingStateHash = :hash',
        ExpressionAttributeValues: { ':hash': stateHash, ':none': null },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
export const deleteGoogleLink = (practiceId: string, userId: string) =>
  documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: googleLinkKey(userId) } }));

/** The attributes an appointment item keeps for its indexes and conflict checks, beside the table's keys. */
const APPOINTMENT_KEYS = ['seriesEnd', 'conflictSk', 'patientSk'];
export const appointmentFromItem = (item: Item): Appointment => parseItem('appointment', Appointment, item, APPOINTMENT_KEYS);

/** A series that never ends sorts after every real end. */
const NEVER_ENDS = '9999-12-31T23:59:59.999Z';
const byEndPartition = (practiceId: string, providerId?: string) => (providerId ? `APPOINTMENTS#${practiceId}#${providerId}` : `APPOINTMENTS#${practiceId}`);
const endSortKey = (seriesEnd: string | null, id: string) => `${seriesEnd ?? NEVER_ENDS}#${id}`;

export async function getItem(practiceId: string, sk: string): Promise<Item | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk }, ConsistentRead: true }));
  return out.Item ?? null;
}

export const byPrefix = (practiceId: string, prefix: string, extra: Partial<Parameters<typeof queryAll>[0]> = {}) =>
  queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ...extra,
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': prefix, ...(extra.ExpressionAttributeValues ?? {}) },
  });

export const put = (practiceId: string, sk: string, entityType: string, value: object) =>
  documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...value, practiceId, sk, entityType } }));

// Appointment types
export async function getAppointmentType(practiceId: string, ident: string): Promise<AppointmentType | null> {
  const item = await getItem(practiceId, appointmentTypeKey(ident));
  return item ? parseItem('appointment type', AppointmentType, item) : null;
}
export async function listAppointmentTypes(practiceId: string): Promise<AppointmentType[]> {
  return (await byPrefix(practiceId, 'APPT_TYPE#')).map((i) => parseItem('appointment type', AppointmentType, i)).sort((a, b) => a.name.localeCompare(b.name));
}
export const putAppointmentType = (practiceId: string, t: AppointmentType) => put(practiceId, appointmentTypeKey(t.ident), 'APPT_TYPE', t);
export const deleteAppointmentType = (practiceId: string, ident: string) =>
  documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: appointmentTypeKey(ident) } }));

// Booking locations
export async function getBookingLocation(practiceId: string, ident: string): Promise<BookingLocation | null> {
  const item = await getItem(practiceId, bookingLocationKey(ident));
  return item ? parseItem('booking location', BookingLocation, item) : null;
}
export async function listBookingLocations(practiceId: string): Promise<BookingLocation[]> {
  return (await byPrefix(practiceId, 'BOOKING_LOCATION#'))
    .map((i) => parseItem('booking location', BookingLocation, i))
    .sort((a, b) => a.name.localeCompare(b.name));
}
export const putBookingLocation = (practiceId: string, l: BookingLocation) => put(practiceId, bookingLocationKey(l.ident), 'BOOKING_LOCATION', l);
export const deleteBookingLocation = (practiceId: string, ident: string) =>
  documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: bookingLocationKey(ident) } }));

// Settings
export async function getUserCalendarSettings(practiceId: string, userId: string): Promise<UserCalendarSettings | null> {
  const item = await getItem(practiceId, userCalendarSettingsKey(userId));
  return item ? parseItem('calendar settings', UserCalendarSettings, item) : null;
}
export const putUserCalendarSettings = (practiceId: string, s: UserCalendarSettings) =>
  put(practiceId, userCalendarSettingsKey(s.userId), 'CALENDAR_SETTINGS', s);
export async function getPracticeCalendarSettings(practiceId: string): Promise<PracticeCalendarSettings | null> {
  const item = await getItem(practiceId, PRACTICE_CALENDAR_SETTINGS_KEY);
  return item ? parseItem('practice calendar settings', PracticeCalendarSettings, item) : null;
}
export const putPracticeCalendarSettings = (practiceId: string, s: PracticeCalendarSettings) =>
  put(practiceId, PRACTICE_CALENDAR_SETTINGS_KEY, 'CALENDAR_SETTINGS', s);

// Appointments
export async function getAppointment(practiceId: string, id: string): Promise<Appointment | null> {
  const item = await getItem(practiceId, appointmentKey(id));
  return item ? appointmentFromItem(item) : null;
}

/**
 * The series that may have an occurrence in [from, to), read from the index by series end: only
 * series ending after `from` are read, then those starting before `to` kept. The index is
 * eventually consistent, which is right for showing a calendar; the double-booking check reads
 * the table itself (listAppointmentsOverlapping).
 */
export async function listAppointmentsInRange(practiceId: string, from: string, to: string, providerId?: string): Promise<Appointment[]> {
  if (await getItem(practiceId, PROVIDER_KEYS_MARKER))
    return providerId ? listAppointmentsOverlapping(practiceId, from, to, providerId) : copiesInRange(practiceId, from, to);
  const index = providerId ? INDEXES.gsi2 : INDEXES.gsi1;
  const items = await queryAll({
    IndexName: index.indexName,
    KeyConditionExpression: '#pk = :pk AND #sk > :from',
    FilterExpression: '#start < :to',
    ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey, '#start': 'start' },
    ExpressionAttributeValues: { ':pk': byEndPartition(practiceId, providerId), ':from': from, ':to': to },
  });
  return items.map(appointmentFromItem);
}

/**
 * Every appointment series of one patient (the FHIR export), in id order as the series' own keys
 * sort: the patient's copies (APPTPATIENT#<patientId>#…), or, in a practice whose older series have
 * no copy yet, every series kept to the patient's.
 */
export async function listPatientAppointments(practiceId: string, patientId: string): Promise<Appointment[]> {
  const items = (await getItem(practiceId, PATIENT_KEYS_MARKER))
    ? await byPrefix(practiceId, patientPrefix(patientId), { ConsistentRead: true })
    : await byPrefix(practiceId, 'APPOINTMENT#', { FilterExpression: 'patientId = :patient', ExpressionAttributeValues: { ':patient': patientId } });
  return items.map(appointmentFromItem).sort((a, b) => (a.appointmentId < b.appointmentId ? -1 : a.appointmentId > b.appointmentId ? 1 : 0));
}

/** The longest appointment (the schema's limit): an occurrence starting this long before a window may reach into it. */
const LONGEST_MS = 720 * 60_000;
export const PROVIDER_KEYS_MARKER = 'CALENDAR_KEYS#PROVIDER';
const oneOffPrefix = (providerId: string) => `APPTSTART#${providerId}#`;
const seriesPrefix = (providerId: string) => `APPTSERIES#${providerId}#`;
const oneOffIndexPartition = (practiceId: string) => `APPTSTART#${practiceId}`;
const seriesIndexPartition = (practiceId: string) => `APPTSERIES#${practiceId}`;

/** The key of the series' copy under its provider: by start when it happens once, by end when it repeats. */
export function providerCopyKey(a: Pick<Appointment, 'appointmentId' | 'providerId' | 'start' | 'recurrence'>, seriesEnd: string | null): string {
  return a.recurrence.frequency === 'Never'
    ? `${oneOffPrefix(a.providerId)}${a.start}#${a.appointmentId}`
    : `${seriesPrefix(a.providerId)}${seriesEnd ?? NEVER_ENDS}#${a.appointmentId}`;
}

export const PATIENT_KEYS_MARKER = 'CALENDAR_KEYS#PATIENT';
const patientPrefix = (patientId: string) => `APPTPATIENT#${patientId}#`;

/** The key of the series' copy under its patient: by start when it happens once, by end when it repeats. */
export function patientCopyKey(a: Pick<Appointment, 'appointmentId' | 'patientId' | 'start' | 'recurrence'>, seriesEnd: string | null): string {
  return a.recurrence.frequency === 'Never'
    ? `${patientPrefix(a.patientId)}ONCE#${a.start}#${a.appointmentId}`
    : `${patientPrefix(a.patientId)}SERIES#${seriesEnd ?? NEVER_ENDS}#${a.appointmentId}`;
}

export function patientCopyItem(practiceId: string, a: Appointment, seriesEnd: string | null): Item {
  return { ...a, practiceId, sk: patientCopyKey(a, seriesEnd), entityType: 'APPOINTMENT_PATIENT_COPY', ...(seriesEnd ? { seriesEnd } : {}) };
}

const between = (practiceId: string, low: string, high: string, extra: Partial<Parameters<typeof queryAll>[0]> = {}) =>
  queryAll({
    KeyConditionExpression: 'practiceId = :p AND sk BETWEEN :low AND :high',
    ConsistentRead: true,
    ...extra,
    ExpressionAttributeValues: { ':p': practiceId, ':low': low, ':high': high, ...(extra.ExpressionAttributeValues ?? {}) },
  });

/**
 * The provider's series that may have an occurrence in [from, to), read consistently from the
 * table: the one-time appointments starting in the window (or up to the longest appointment
 * before it), and the repeating series started before `to` that end after `from`. A practice
 * whose older appointments have no copy yet reads every series, as before.
 */
export async function listAppointmentsOverlapping(practiceId: string, from: string, to: string, providerId: string): Promise<Appointment[]> {
  if (!(await getItem(practiceId, PROVIDER_KEYS_MARKER))) {
    const all = await byPrefix(practiceId, 'APPOINTMENT#', {
      FilterExpression: '#start < :to AND (attribute_not_exists(seriesEnd) OR seriesEnd > :from) AND providerId = :provider',
      ExpressionAttributeNames: { '#start': 'start' },
      ExpressionAttributeValues: { ':to': to, ':from': from, ':provider': providerId },
    });
    return all.map(appointmentFromItem);
  }
  const earliest = new Date(Date.parse(from) - LONGEST_MS).toISOString();
  const [oneOff, repeating] = await Promise.all([
    between(practiceId, `${oneOffPrefix(providerId)}${earliest}`, `${oneOffPrefix(providerId)}${to}`, {
      FilterExpression: 'seriesEnd > :from',
      ExpressionAttributeValues: { ':from': from },
    }),
    between(practiceId, `${seriesPrefix(providerId)}${from}`, `${seriesPrefix(providerId)}\uffff`, {
      FilterExpression: '#start < :to',
      ExpressionAttributeNames: { '#start': 'start' },
      ExpressionAttributeValues: { ':to': to },
    }),
  ]);
  return [...oneOff, ...repeating].map(appointmentFromItem);
}

/** Every provider's series in [from, to), from the copies' practice-wide index (eventually consistent, as a calendar shows). */
async function copiesInRange(practiceId: string, from: string, to: string): Promise<Appointment[]> {
  const earliest = new Date(Date.parse(from) - LONGEST_MS).toISOString();
  const index = (pk: string, low: string, high: string, filter: string, values: Record<string, string>) =>
    queryAll({
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :low AND :high',
      FilterExpression: filter,
      ExpressionAttributeNames: { '#start': 'start' },
      ExpressionAttributeValues: { ':pk': pk, ':low': low, ':high': high, ...values },
    });
  const [oneOff, repeating] = await Promise.all([
    index(oneOffIndexPartition(practiceId), earliest, to, 'seriesEnd > :from AND #start < :to', { ':from': from, ':to': to }),
    index(seriesIndexPartition(practiceId), from, '\uffff', '#start < :to', { ':to': to }),
  ]);
  return [...oneOff, ...repeating].map(appointmentFromItem);
}

/** The copy item: the series, its end, and its place in the practice-wide index by start (once) or end (repeating). */
export function copyItem(practiceId: string, a: Appointment, seriesEnd: string | null): Item {
  const once = a.recurrence.frequency === 'Never';
  return {
    ...a,
    practiceId,
    sk: providerCopyKey(a, seriesEnd),
    entityType: 'APPOINTMENT_PROVIDER_COPY',
    ...(seriesEnd ? { seriesEnd } : {}),
    gsi1pk: once ? oneOffIndexPartition(practiceId) : seriesIndexPartition(practiceId),
    gsi1sk: once ? `${a.start}#${a.appointmentId}` : endSortKey(seriesEnd, a.appointmentId),
  };
}

export async function readProviderLock(practiceId: string, providerId: string): Promise<number> {
  return Number((await getItem(practiceId, providerLockKey(providerId)))?.version ?? 0);
}

/** The transaction's parts that claim the provider's calendar as it was read (version `seen`). */
function lockClaim(practiceId: string, providerId: string, seen: number) {
  return {
    Update: {
      TableName: tableName(),
      Key: { practiceId, sk: providerLockKey(providerId) },
      UpdateExpression: 'SET version = :next, entityType = :t',
      ConditionExpression: seen === 0 ? 'attribute_not_exists(sk) OR version = :seen' : 'version = :seen',
      ExpressionAttributeValues: { ':next': seen + 1, ':seen': seen, ':t': 'CALENDAR_LOCK' },
    },
  };
}

/** One appointment item of a write: the new one (previousUpdatedAt null) or a change over the version read. */
export interface AppointmentWrite {
  next: Appointment;
  seriesEnd: string | null;
  previousUpdatedAt: string | null;
}

/**
 * Writes the series (and, when one occurrence is taken out of a series, the series and that
 * occurrence together) and claims each provider's calendar it was checked against (the new
 * provider, and the old one when it moved), or fails the condition when another booking came
 * first. A changed series is written only over the version the client read.
 */
export async function writeAppointments(practiceId: string, writes: AppointmentWrite[], locks: { providerId: string; seen: number }[]): Promise<void> {
  // The copy the version being replaced has: the transaction's condition on that version makes it still the one.
  const previous = await Promise.all(writes.map(async (w) => (w.previousUpdatedAt ? await getItem(practiceId, appointmentKey(w.next.appointmentId)) : null)));
  const previousCopies = previous.map((item) => item?.conflictSk);
  const previousPatientCopies = previous.map((item) => item?.patientSk);
  const copies = writes.map((w) => providerCopyKey(w.next, w.seriesEnd));
  const patientCopies = writes.map((w) => patientCopyKey(w.next, w.seriesEnd));
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        ...writes.flatMap(({ next, seriesEnd }, i) => [
          { Put: { TableName: tableName(), Item: copyItem(practiceId, next, seriesEnd) } },
          ...(typeof previousCopies[i] === 'string' && previousCopies[i] !== copies[i]
            ? [{ Delete: { TableName: tableName(), Key: { practiceId, sk: previousCopies[i] } } }]
            : []),
          { Put: { TableName: tableName(), Item: patientCopyItem(practiceId, next, seriesEnd) } },
          ...(typeof previousPatientCopies[i] === 'string' && previousPatientCopies[i] !== patientCopies[i]
            ? [{ Delete: { TableName: tableName(), Key: { practiceId, sk: previousPatientCopies[i] } } }]
            : []),
        ]),
        ...writes.map(({ next, seriesEnd, previousUpdatedAt }, i) => ({
          Put: {
            TableName: tableName(),
            Item: {
              ...next,
              practiceId,
              sk: appointmentKey(next.appointmentId),
              entityType: 'APPOINTMENT',
              conflictSk: copies[i],
              patientSk: patientCopies[i],
              ...(seriesEnd ? { seriesEnd } : {}),
              gsi1pk: byEndPartition(practiceId),
              gsi1sk: endSortKey(seriesEnd, next.appointmentId),
              gsi2pk: byEndPartition(practiceId, next.providerId),
              gsi2sk: endSortKey(seriesEnd, next.appointmentId),
            },
            ...(previousUpdatedAt ? unchangedSince('updatedAt', previousUpdatedAt) : { ConditionExpression: 'attribute_not_exists(sk)' }),
          },
        })),
        ...locks.map((l) => lockClaim(practiceId, l.providerId, l.seen)),
      ],
    }),
  );
}

/** Deletes the series with its provider copy (the version read, so a copy written meanwhile is not left behind). */
export async function deleteAppointment(practiceId: string, id: string): Promise<void> {
  const item = await getItem(practiceId, appointmentKey(id));
  const copy = typeof item?.conflictSk === 'string' ? item.conflictSk : null;
  if (!item || !copy) {
    await documentClient().send(
      new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: appointmentKey(id) }, ConditionExpression: 'attribute_exists(sk)' }),
    );
    return;
  }
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: { practiceId, sk: appointmentKey(id) }, ...unchangedSince('updatedAt', item.updatedAt) } },
        { Delete: { TableName: tableName(), Key: { practiceId, sk: copy } } },
        ...(typeof item.patientSk === 'string' ? [{ Delete: { TableName: tableName(), Key: { practiceId, sk: item.patientSk } } }] : []),
      ],
    }),
  );
}

/**
 * Sets the arrivals of one series over the version read, and bumps its version: an edit form
 * opened before is then refused (409) rather than writing the older arrivals back.
 */
export async function updateArrivals(
  practiceId: string,
  id: string,
  arrivals: Appointment['arrivals'],
  previousUpdatedAt: string,
  updatedAt: string,
): Promise<void> {
  const set = {
    UpdateExpression: 'SET arrivals = :arrivals, updatedAt = :now',
    ExpressionAttributeValues: { ':arrivals': arrivals, ':now': updatedAt, ':prev': previousUpdatedAt },
  };
  // The provider's copy is what a provider's calendar reads: it takes the arrivals in the same transaction.
  const series = await getItem(practiceId, appointmentKey(id));
  const copy = series?.conflictSk;
  const patientCopy = series?.patientSk;
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Update: { TableName: tableName(), Key: { practiceId, sk: appointmentKey(id) }, ConditionExpression: 'updatedAt = :prev', ...set } },
        ...(typeof copy === 'string'
          ? [{ Update: { TableName: tableName(), Key: { practiceId, sk: copy }, ConditionExpression: 'attribute_exists(sk) AND updatedAt = :prev', ...set } }]
          : []),
        ...(typeof patientCopy === 'string'
          ? [
              {
                Update: {
                  TableName: tableName(),
                  Key: { practiceId, sk: patientCopy },
                  ConditionExpression: 'attribute_exists(sk) AND updatedAt = :prev',
                  ...set,
                },
              },
            ]
          : []),
      ],
    }),
  );
}

/**
 * A patient's series that may have an occurrence in [from, to) (the chart header's next visits):
 * from the patient's copies, the one-time appointments starting in the window (or up to the
 * longest appointment before it) and the repeating series still running at `from`. A practice
 * whose older appointments have no patient copy yet reads the practice's future series, kept to
 * the patient's.
 */
export async function listPatientAppointmentsFrom(practiceId: string, patientId: string, from: string, to: string): Promise<Appointment[]> {
  if (await getItem(practiceId, PATIENT_KEYS_MARKER)) {
    const earliest = new Date(Date.parse(from) - LONGEST_MS).toISOString();
    const [oneOff, repeating] = await Promise.all([
      between(practiceId, `${patientPrefix(patientId)}ONCE#${earliest}`, `${patientPrefix(patientId)}ONCE#${to}`, {
        FilterExpression: 'seriesEnd > :from',
        ExpressionAttributeValues: { ':from': from },
      }),
      between(practiceId, `${patientPrefix(patientId)}SERIES#${from}`, `${patientPrefix(patientId)}SERIES#\uffff`, {
        FilterExpression: '#start < :to',
        ExpressionAttributeNames: { '#start': 'start' },
        ExpressionAttributeValues: { ':to': to },
      }),
    ]);
    return [...oneOff, ...repeating].map(appointmentFromItem);
  }
  const index = INDEXES.gsi1;
  const items = await queryAll({
    IndexName: index.indexName,
    KeyConditionExpression: '#pk = :pk AND #sk > :from',
    FilterExpression: 'patientId = :patient',
    ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
    ExpressionAttributeValues: { ':pk': byEndPartition(practiceId), ':from': from, ':patient': patientId },
  });
  return items.map(appointmentFromItem);
}
