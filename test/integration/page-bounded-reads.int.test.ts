import { beforeAll, describe, expect, it } from 'vitest';
import { GROUPS } from '../../functions/groups.js';
import { resetDocumentClient } from '../../functions/lib/table/client.js';
import { ITEMS_READ_HEADER } from '../../functions/lib/table/read-meter.js';
import { conversationIdFor, insertSmsNote, putConversationIfAbsent, type ConversationRecord } from '../../functions/data/messaging/messaging-repository.js';
import { CHART_NOTE_KEYS_MARKER, insertNote, noteKey, toItem as noteItem } from '../../functions/data/notes/note-repository.js';
import { backfillChartNoteKeys } from '../../functions/data/notes/note-backfill.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { createNotification, NOTIFICATION_PEOPLE_MARKER, updateNotification } from '../../functions/data/notifications/notification-repository.js';
import { backfillNotificationPeopleKeys } from '../../functions/data/notifications/notification-backfill.js';
import { writeAppointments } from '../../functions/data/calendar/calendar-repository.js';
import { CALL_PATIENT_KEYS_MARKER, callKey, deleteCall, listPatientCalls, putCall } from '../../functions/data/calls/call-repository.js';
import { backfillCallPatientKeys } from '../../functions/data/calls/call-backfill.js';
import { FAX_COUNTS_KEY, faxKey, putFax } from '../../functions/data/faxes/fax-repository.js';
import { backfillFaxListKeys, backfillFaxNoteKeys } from '../../functions/data/faxes/fax-backfill.js';
import { loadChartSource, loadPracticeDirectory } from '../../functions/core/fhir/chart-source.js';
import { itemsRead, withReadMeter } from '../../functions/lib/table/read-meter.js';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/lib/table/client.js';
import { tableName } from '../../functions/lib/table/definition.js';
import { CONTACT_NUMBERS_MARKER, contactKey } from '../../functions/data/contacts/contact-repository.js';
import { backfillContactNumbers } from '../../functions/data/contacts/contact-backfill.js';
import type { Appointment } from '../../shared/calendar/calendar-schema.js';
import { NO_RECURRENCE } from '../../shared/calendar/recurrence.js';
import { CONVERSATION_PAGE_MAX } from '../../shared/messaging/messaging-constants.js';
import { CONTACT_PAGE } from '../../shared/contacts/contact-schema.js';
import { formatPhone } from '../../shared/patients/phone.js';
import { putPatientsBatch } from '../../functions/data/patients/patient-repository.js';
import { Patient } from '../../shared/patients/patient-record.js';
import { api, createTestUser, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';
import { eventually } from '../support/eventually.js';

/*
 * Every list and search a screen uses reads one page through the data layer, however large the
 * practice: a practice is seeded with more of each set than two pages hold, every GET list route
 * of the route table is called as a screen calls it, and the items each request read (counted by
 * the document client, a Query's evaluated items included) must stay under two pages.
 */
const SEEDED = 300;
const BOUND = 2 * CONVERSATION_PAGE_MAX;
const run = Date.now().toString(36);
const PRACTICE_PHONE = '+15415550100';
const DAY_MS = 86_400_000;

let admin: string;
let provider: string;
let providerId: string;
let patientId: string;
let typeId: string;
let callsBefore: number;
let callsOnDayBefore: number;
const firstDay = Date.UTC(2031, 0, 6, 15, 0, 0);

function seedConversation(i: number): ConversationRecord {
  const patientPhone = `+1503${String(7_000_000 + i).padStart(7, '0')}`;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const unread = i % 3 === 0;
  return {
    conversationId: conversationIdFor(PRACTICE_PHONE, `${patientPhone}${run}`),
    patientPhoneNumber: patientPhone,
    practicePhoneNumber: PRACTICE_PHONE,
    patientIds: [],
    patientNames: [`Bulk${run} ${i}`],
    readStatus: unread ? 'UNREAD' : 'READ',
    archived: i % 10 === 9,
    unreadCount: unread ? 1 : 0,
    lastMessage: {
      messageId: `m${i}`,
      direction: unread ? 'inbound' : 'outbound',
      text: `text ${i}`,
      timestamp: at,
      deliveryStatus: unread ? 'RECEIVED' : 'DELIVERED',
    },
    participants: [],
    createdAt: at,
    updatedAt: at,
    lastReadAt: at,
  };
}

function seedAppointment(i: number): Appointment {
  const start = new Date(firstDay + i * DAY_MS).toISOString();
  return {
    appointmentId: `bulk-${run}-${i}`,
    patientId,
    appointmentTypeId: typeId,
    providerId,
    bookingLocationId: null,
    visitType: 'virtual',
    arrivals: {},
    start,
    durationMinutes: 30,
    recurrence: { ...NO_RECURRENCE, end: 'NEVER', until: null, count: 1 },
    notes: '',
    excludedDays: [],
    detachedFrom: null,
    createdBy: providerId,
    createdAt: start,
    updatedAt: start,
  };
}

/** Faxes arrive all day: every fourth already read, every fifth assigned to the bulk provider. */
function seedFaxNotification(practiceId: string, i: number) {
  return createNotification(
    practiceId,
    { notificationType: 'FAX', notificationStatus: i % 4 === 0 ? 'READ' : 'UNREAD', text: `Bulk fax ${run} ${i}`, assigned: i % 5 === 0 ? providerId : null },
    { userId: 'bulk-seed' },
    new Date(Date.UTC(2026, 0, 1) + i * 60_000),
  );
}

function seedCall(practiceId: string, i: number, patient: string | null = null) {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return putCall(practiceId, {
    ident: patient ? `bulk-${run}-${patient}-${i}` : `bulk-${run}-${i}`,
    callSid: null,
    direction: 'INBOUND',
    status: i % 3 === 0 ? 'READ' : 'UNREAD',
    callStatus: 'completed',
    caller: `+1503${String(8_000_000 + i).padStart(7, '0')}`,
    recipient: PRACTICE_PHONE,
    callerName: null,
    recipientName: null,
    patientId: patient,
    patientName: null,
    assigned: null,
    placedBy: null,
    voicemailKey: null,
    voicemailSeconds: null,
    durationSeconds: 30,
    noteId: null,
    createdAt: at,
    updatedAt: at,
  });
}

/** A text of the bulk patient's conversation, as the messaging repository stores one: an SMS note in the chart and in the phone's history. */
function seedText(i: number): Note {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const inbound = i % 2 === 1;
  const patientPhone = '+15037999999';
  return {
    noteId: `bulk-${run}-text-${i}`,
    noteType: 'SMS',
    status: 'DELIVERED',
    signed: null,
    eventTimestamp: at,
    timestamp: at,
    createdAt: at,
    data: {
      from: inbound ? patientPhone : PRACTICE_PHONE,
      to: inbound ? PRACTICE_PHONE : patientPhone,
      text: `Bulk text ${i}`,
      direction: inbound ? 'inbound' : 'outbound',
      deliveryStatus: inbound ? 'RECEIVED' : 'DELIVERED',
      failureReason: null,
      conversationId: conversationIdFor(PRACTICE_PHONE, patientPhone),
      practicePhoneNumber: PRACTICE_PHONE,
      patientPhoneNumber: patientPhone,
      carrierMessageIds: [],
      sentBy: null,
      scheduledEventId: null,
      notificationId: null,
      timestamp: at,
    },
    patientId,
    hidden: false,
    files: [],
    author: { userId: 'bulk-seed', name: 'Bulk seed' },
    onBehalfOf: null,
    noteVersion: 1,
  };
}

/** One of the bulk patient's own notes: signed visit notes, and a lab result. */
function seedChartNote(i: number, noteType: 'NOTE' | 'LAB'): Note {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000 + 30_000).toISOString();
  return {
    noteId: `bulk-${run}-${noteType.toLowerCase()}-${i}`,
    noteType,
    status: 'SIGNED',
    signed: at,
    eventTimestamp: at,
    timestamp: at,
    createdAt: at,
    data: { text: `Bulk ${noteType} ${i}`, formattedText: `<p>Bulk ${noteType} ${i}</p>` },
    patientId,
    hidden: false,
    files: [],
    author: { userId: 'bulk-seed', name: 'Bulk seed' },
    onBehalfOf: null,
    noteVersion: 1,
    signedBy: { userId: 'bulk-seed', name: 'Bulk seed' },
  };
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

beforeAll(async () => {
  const { dynamodb, tableName, practiceId } = stackEndpoints();
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamodb,
    TABLE_NAME: tableName,
    PRACTICE_ID: practiceId,
    AWS_REGION: stackOutputs().region,
    TIDEWELL_LOG: 'silent',
  });
  resetDocumentClient();
  admin = await signIn('admin@demo.tidewell.local');
  provider = await createTestUser({ email: `bulk-provider-${run}@demo.test`, group: 'provider', firstName: 'Bulk', lastName: `Provider${run}` });
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
  const p = await api(admin, 'POST', '/v1/patients', { firstName: 'Bulk', lastName: `Patient${run}`, gender: 'female', dob: '1970-01-01' });
  expect(p.status).toBe(201);
  patientId = p.body.id;
  const type = await api(admin, 'POST', '/v1/appointment-types', { name: `Bulk ${run}`, durationMinutes: 30 });
  expect(type.status).toBe(201);
  typeId = type.body.ident;
  // Through the real repositories, so each item has the keys and indexes the app writes.
  await inBatches(
    Array.from({ length: SEEDED }, (_, i) => i),
    25,
    (i) => putConversationIfAbsent(practiceId, seedConversation(i)),
  );
  await inBatches(
    Array.from({ length: SEEDED }, (_, i) => i),
    25,
    (i) =>
      writeAppointments(
        practiceId,
        [{ next: seedAppointment(i), seriesEnd: new Date(firstDay + i * DAY_MS + 30 * 60_000).toISOString(), previousUpdatedAt: null }],
        [],
      ),
  );
  await inBatches(
    Array.from({ length: SEEDED }, (_, i) => i),
    25,
    (i) => seedFaxNotification(practiceId, i),
  );
  // The bulk patient's chart: a busy conversation's texts, between three signed notes and a lab result.
  await inBatches(
    Array.from({ length: SEEDED }, (_, i) => i),
    25,
    (i) => insertSmsNote(practiceId, seedText(i)),
  );
  for (const i of [0, 150, 299]) await insertNote(practiceId, seedChartNote(i, 'NOTE'));
  await insertNote(practiceId, seedChartNote(200, 'LAB'));
  callsBefore = (await api(admin, 'GET', '/v1/phone-calls/count')).body.count;
  const listedBefore = await api(admin, 'GET', '/v1/phone-calls?fromDate=2026-01-01&toDate=2026-01-01');
  callsOnDayBefore = listedBefore.body.total;
  await inBatches(
    Array.from({ length: SEEDED }, (_, i) => i),
    25,
    (i) => seedCall(practiceId, i),
  );
}, 240_000);

/** Realistic query strings for the list routes that need one, as their screens send them. */
const QUERIES: Record<string, () => string> = {
  'GET /v1/patients': () => `?search=Patient${run}`,
  'GET /v1/appointments': () =>
    `?start=${new Date(firstDay + 100 * DAY_MS).toISOString()}&end=${new Date(firstDay + 107 * DAY_MS).toISOString()}&providerId=${providerId}`,
  'GET /v2/notes': () => `?patientId=${patientId}`,
  'GET /v1/appointments/upcoming': () => `?patientId=${patientId}`,
  'GET /v1/notes': () => `?patientId=${patientId}&noteType=LAB&excludeFormattedText=true`,
  'GET /sms': () => `?phoneNumber=${encodeURIComponent('+15037000003')}`,
  'GET /v1/icd-10-codes': () => '?search=diab',
  'GET /v2/nationaldrugcodes/search': () => '?search=amox',
  'GET /v1/nationaldrugcodes/search': () => '?search=amox',
  'GET /v1/messaging/conversations': () => '?offset=0&limit=25',
};

/** The screens' list routes: every GET of the route table without a path parameter. */
const listRoutes = GROUPS.flatMap((g) => g.routes).filter((r) => r.startsWith('GET ') && !r.includes('{'));

describe(`each list route reads at most ${BOUND} items with ${SEEDED} conversations, ${SEEDED} appointments of one provider, ${SEEDED} fax notifications, ${SEEDED} phone calls and ${SEEDED} texts on one patient`, () => {
  it.each(listRoutes)('%s', async (route) => {
    const path = route.slice('GET '.length) + (QUERIES[route]?.() ?? '');
    const res = await api(admin, 'GET', path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
    const read = Number(res.headers.get(ITEMS_READ_HEADER));
    console.log(`${route}\t${res.status}\t${read}`);
    expect(read, `${route} read ${read} items`).toBeLessThanOrEqual(BOUND);
  });

  // Of the seeded 300: every tenth archived, every third of the rest unread (other files may add more).
  const seededTotals = { all: 270, unread: 90, read: 180, archived: 30 };
  it.each(['all', 'unread', 'read', 'archived'] as const)(
    'the conversation list filtered %s reads one page, most recent first, with its total',
    async (filter) => {
      const res = await api(admin, 'GET', `/v1/messaging/conversations?filter=${filter}&offset=25&limit=25`);
      expect(res.status).toBe(200);
      const list = res.body.conversations as { archived: boolean; readStatus: string; updatedAt: string }[];
      expect(res.body.total).toBeGreaterThanOrEqual(seededTotals[filter]);
      // The total and the tab's own partition agree: the second page holds what the total leaves after the first.
      expect(list).toHaveLength(Math.min(25, res.body.total - 25));
      expect(list.every((c) => (filter === 'archived' ? c.archived : !c.archived))).toBe(true);
      if (filter === 'unread' || filter === 'read') expect(list.every((c) => c.readStatus === filter.toUpperCase())).toBe(true);
      expect(list.map((c) => c.updatedAt)).toEqual(
        list
          .map((c) => c.updatedAt)
          .sort()
          .reverse(),
      );
      const first = await api(admin, 'GET', `/v1/messaging/conversations?filter=${filter}&limit=25`);
      expect(first.body.conversations.at(-1).updatedAt >= list[0]!.updatedAt).toBe(true);
      const read = Number(res.headers.get(ITEMS_READ_HEADER));
      console.log(`conversations filter=${filter} offset=25\t${read}`);
      expect(read).toBeLessThanOrEqual(BOUND);
    },
  );

  it('the unread count is the unread conversations and their texts, read from one item', async () => {
    const res = await api(admin, 'GET', '/v1/messaging/conversations/unread-count');
    expect(res.body.conversations).toBeGreaterThanOrEqual(seededTotals.unread);
    expect(res.body.messages).toBeGreaterThanOrEqual(res.body.conversations);
    expect(Number(res.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(2);
  });

  it('the chart’s notes timeline and a lab history read the patient’s notes, not the conversation’s texts', async () => {
    const timeline = await api(admin, 'GET', `/v2/notes?patientId=${patientId}&offset=0&limit=50`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.notes.map((n: Note) => n.noteId)).toEqual([299, 150, 0].map((i) => `bulk-${run}-note-${i}`));
    expect(timeline.body.total).toBe(3);
    const read = Number(timeline.headers.get(ITEMS_READ_HEADER));
    console.log(`GET /v2/notes (3 notes, a lab and ${SEEDED} texts)\t${read}`);
    // The marker and the patient's four notes; before, every one of the texts too.
    expect(read).toBeLessThanOrEqual(6);

    // Texts asked for are there, a page of them read up to itself, and a text open in its window is given with any page.
    const texts = await api(admin, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=SMS&statuses=DELIVERED&offset=0&limit=50`);
    expect(texts.body).toMatchObject({ hasMore: true, offset: 0, limit: 50 });
    expect(texts.body.total).toBeUndefined();
    expect(texts.body.notes[0].noteId).toBe(`bulk-${run}-text-${SEEDED - 1}`);
    // The page, one more to know a next page exists, and the two signed notes newer than the 50th text.
    expect(Number(texts.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(55);
    const lastTexts = await api(admin, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=SMS&statuses=DELIVERED&offset=${SEEDED - 20}&limit=50`);
    expect(lastTexts.body).toMatchObject({ hasMore: false, total: SEEDED });
    expect(lastTexts.body.notes.map((n: Note) => n.noteId)).toEqual(Array.from({ length: 20 }, (_, i) => `bulk-${run}-text-${19 - i}`));
    const withOpenText = await api(admin, 'GET', `/v2/notes?patientId=${patientId}&offset=0&limit=50&currentNoteId=bulk-${run}-text-7`);
    expect(withOpenText.body.currentNote).toMatchObject({ noteId: `bulk-${run}-text-7`, noteType: 'SMS' });
    expect(Number(withOpenText.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(7);

    const labs = await api(admin, 'GET', `/v1/notes?patientId=${patientId}&noteType=LAB&excludeFormattedText=true`);
    expect(labs.body.notes.map((n: Note) => n.noteId)).toEqual([`bulk-${run}-lab-200`]);
    expect(Number(labs.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(6);
  });

  it('a note written before the chart-notes keys is in the timeline from every note until the backfill ran, then from the index', async () => {
    const { practiceId } = stackEndpoints();
    const older = seedChartNote(250, 'NOTE');
    const { gsi2pk, gsi2sk, ...unkeyed } = noteItem(practiceId, older);
    expect(gsi2pk).toBeDefined();
    expect(gsi2sk).toBeDefined();
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: unkeyed }));
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId: practiceId, sk: CHART_NOTE_KEYS_MARKER } }));
    const ids = (res: { body: { notes: Note[] } }) => res.body.notes.map((n) => n.noteId);
    try {
      const before = await api(admin, 'GET', `/v2/notes?patientId=${patientId}`);
      expect(ids(before)).toEqual([299, 250, 150, 0].map((i) => `bulk-${run}-note-${i}`));
      expect(Number(before.headers.get(ITEMS_READ_HEADER))).toBeGreaterThan(SEEDED);
    } finally {
      expect(await backfillChartNoteKeys(practiceId)).toBeGreaterThanOrEqual(1);
    }
    const stored = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: practiceId, sk: noteKey(older.noteId) } }));
    expect(stored.Item).toMatchObject({ gsi2pk, gsi2sk });
    const wanted = [299, 250, 150, 0].map((i) => `bulk-${run}-note-${i}`);
    // The index is eventually consistent: the backfilled keys are read once the index has them.
    const after = await eventually(
      'the backfilled note in the timeline from the index',
      () => api(admin, 'GET', `/v2/notes?patientId=${patientId}`),
      (res) => JSON.stringify(ids(res)) === JSON.stringify(wanted),
    );
    expect(Number(after.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(7);
    expect(await backfillChartNoteKeys(practiceId)).toBe(0);
  });

  it('the all-providers calendar of a week reads that week’s appointments, not the calendar', async () => {
    const start = new Date(firstDay + 100 * DAY_MS - 3_600_000).toISOString();
    const end = new Date(firstDay + 107 * DAY_MS - 3_600_000).toISOString();
    const res = await api(admin, 'GET', `/v1/appointments?start=${start}&end=${end}`);
    expect(res.status).toBe(200);
    const seededThisWeek = (res.body.occurrences as { appointmentId: string; providerId: string }[]).filter((o) => o.appointmentId.startsWith(`bulk-${run}-`));
    expect(seededThisWeek.map((o) => o.appointmentId).sort()).toEqual([100, 101, 102, 103, 104, 105, 106].map((i) => `bulk-${run}-${i}`).sort());
    const read = Number(res.headers.get(ITEMS_READ_HEADER));
    console.log(`GET /v1/appointments (all providers, one week)\t${read}`);
    expect(read).toBeLessThanOrEqual(BOUND);
  });

  it('a patient’s next visits read the patient’s coming appointments, not the practice’s future calendar', async () => {
    const start = new Date(Date.now() + 3 * DAY_MS);
    start.setUTCHours(16, 0, 0, 0);
    const booked = await api(admin, 'POST', '/v1/appointments', {
      patientId,
      appointmentTypeId: typeId,
      providerId,
      visitType: 'virtual',
      durationMinutes: 30,
      start: start.toISOString(),
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const res = await api(admin, 'GET', `/v1/appointments/upcoming?patientId=${patientId}`);
    expect(res.status).toBe(200);
    expect((res.body.visits as { appointmentId: string; start: string }[]).map((v) => [v.appointmentId, v.start])).toEqual([
      [booked.body.appointmentId, start.toISOString()],
    ]);
    const read = Number(res.headers.get(ITEMS_READ_HEADER));
    console.log(`GET /v1/appointments/upcoming (${SEEDED} future appointments of the practice)\t${read}`);
    expect(read).toBeLessThanOrEqual(BOUND);
    // Moved a week on, the visit is read from its new place, once.
    const moved = new Date(start.getTime() + 7 * DAY_MS);
    const saved = await api(admin, 'PUT', `/v1/appointments/${booked.body.appointmentId}`, {
      patientId,
      appointmentTypeId: typeId,
      providerId,
      visitType: 'virtual',
      durationMinutes: 30,
      start: moved.toISOString(),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const after = await api(admin, 'GET', `/v1/appointments/upcoming?patientId=${patientId}`);
    expect((after.body.visits as { start: string }[]).map((v) => v.start)).toEqual([moved.toISOString()]);
    expect((await api(admin, 'DELETE', `/v1/appointments/${booked.body.appointmentId}`)).status).toBe(200);
    expect((await api(admin, 'GET', `/v1/appointments/upcoming?patientId=${patientId}`)).body.visits).toEqual([]);
  });

  it('the double-booking check of a new appointment reads the provider’s window, not the calendar', async () => {
    const free = await api(admin, 'POST', '/v1/appointments', {
      patientId,
      appointmentTypeId: typeId,
      providerId,
      visitType: 'virtual',
      durationMinutes: 30,
      start: new Date(firstDay + 150 * DAY_MS + 2 * 3_600_000).toISOString(),
    });
    expect(free.status, JSON.stringify(free.body)).toBe(201);
    const booked = Number(free.headers.get(ITEMS_READ_HEADER));
    const clash = await api(admin, 'POST', '/v1/appointments', {
      patientId,
      appointmentTypeId: typeId,
      providerId,
      visitType: 'virtual',
      durationMinutes: 30,
      start: new Date(firstDay + 151 * DAY_MS + 15 * 60_000).toISOString(),
    });
    expect(clash.status).toBe(409);
    const refused = Number(clash.headers.get(ITEMS_READ_HEADER));
    console.log(`POST /v1/appointments\tbooked ${booked}\trefused ${refused}`);
    expect(booked).toBeLessThanOrEqual(BOUND);
    expect(refused).toBeLessThanOrEqual(BOUND);
  });

  it('the fax store lists one page, updated then unread then read, newest first, from the index', async () => {
    const res = await api(admin, 'GET', '/v1/notifications?notificationType=FAX&notificationStatus=UPDATED,UNREAD,READ');
    expect(res.status).toBe(200);
    const list = res.body.notifications as { notificationStatus: string; createdAt: string; text: string | null }[];
    expect(list).toHaveLength(100);
    const rank = (s: string) => ['UPDATED', 'UNREAD', 'READ'].indexOf(s);
    expect(list.map((n) => rank(n.notificationStatus))).toEqual(list.map((n) => rank(n.notificationStatus)).sort((a, b) => a - b));
    const unread = list.filter((n) => n.notificationStatus === 'UNREAD');
    expect(unread.map((n) => n.createdAt)).toEqual(
      unread
        .map((n) => n.createdAt)
        .sort()
        .reverse(),
    );
    const read = Number(res.headers.get(ITEMS_READ_HEADER));
    console.log(`notifications FAX store\t${read}`);
    expect(read).toBeLessThanOrEqual(BOUND);
  });

  it('the notification list of every type merges one page from each type’s partitions', async () => {
    const res = await api(admin, 'GET', '/v1/notifications?limit=50');
    expect(res.status).toBe(200);
    const list = res.body.notifications as { notificationStatus: string; createdAt: string }[];
    expect(list).toHaveLength(50);
    const rank = (s: string) => ['UPDATED', 'UNREAD', 'READ'].indexOf(s);
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(rank(a.notificationStatus) < rank(b.notificationStatus) || (a.notificationStatus === b.notificationStatus && a.createdAt >= b.createdAt)).toBe(
        true,
      );
    }
    expect(Number(res.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(100);
  });

  it('notifications assigned to someone, or related to something, are read from their own partitions, not filtered from every notification', async () => {
    const { practiceId } = stackEndpoints();
    // Older than every seeded fax, so a filter over the type's partitions reads all of them first.
    const rare = `rare-${run}`;
    await createNotification(
      practiceId,
      { notificationType: 'FAX', notificationStatus: 'UNREAD', text: `Rare ${run}`, assigned: rare, relatedTo: `about-${run}` },
      { userId: 'bulk-seed' },
      new Date(Date.UTC(2025, 0, 1)),
    );
    const mine = await api(admin, 'GET', `/v1/notifications?notificationType=FAX&notificationStatus=UNREAD,READ&assigned=${providerId}&limit=100`);
    const rareOnes = await api(admin, 'GET', `/v1/notifications?notificationType=FAX&assigned=${rare}`);
    const related = await api(admin, 'GET', `/v1/notifications?notificationType=FAX&relatedTo=about-${run}`);
    const both = await api(admin, 'GET', `/v1/notifications?notificationType=FAX&relatedTo=about-${run}&assigned=${providerId}`);
    for (const res of [mine, rareOnes, related, both]) expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Of the 300 seeded faxes every fifth is the provider's: 45 unread, then 15 read, newest first within each.
    const list = mine.body.notifications as { notificationStatus: string; assigned: string; createdAt: string }[];
    expect(list.map((n) => n.notificationStatus)).toEqual([...Array<string>(45).fill('UNREAD'), ...Array<string>(15).fill('READ')]);
    expect(list.every((n) => n.assigned === providerId)).toBe(true);
    expect(list.slice(0, 45).map((n) => n.createdAt)).toEqual(
      list
        .slice(0, 45)
        .map((n) => n.createdAt)
        .sort()
        .reverse(),
    );
    expect(rareOnes.body.notifications.map((n: { text: string }) => n.text)).toEqual([`Rare ${run}`]);
    expect(related.body.notifications.map((n: { text: string }) => n.text)).toEqual([`Rare ${run}`]);
    expect(both.body.notifications).toEqual([]);
    const reads = [mine, rareOnes, related, both].map((r) => Number(r.headers.get(ITEMS_READ_HEADER)));
    console.log(`notifications assigned to the provider\t${reads[0]}\tto a rare assignee\t${reads[1]}\trelated to\t${reads[2]}\tboth\t${reads[3]}`);
    expect(reads[0]).toBeLessThanOrEqual(60 + 5);
    expect(Math.max(...reads.slice(1))).toBeLessThanOrEqual(5);
  });

  it('a notification reassigned or unassigned moves out of its former assignee’s partition', async () => {
    const { practiceId } = stackEndpoints();
    const [first, second] = [`first-${run}`, `second-${run}`];
    const n = await createNotification(practiceId, { notificationType: 'TASK', text: `Moving ${run}`, assigned: first }, { userId: 'bulk-seed' });
    const textsOf = async (assigned: string) =>
      (await api(admin, 'GET', `/v1/notifications?notificationType=TASK&assigned=${assigned}`)).body.notifications.map((x: { text: string }) => x.text);
    await eventually(
      'listed under its assignee',
      () => textsOf(first),
      (t) => t.length === 1,
    );
    await updateNotification(practiceId, n.notificationId, { assigned: second }, { userId: 'bulk-seed' });
    await eventually(
      'moved to the new assignee',
      () => textsOf(second),
      (t) => t.length === 1,
    );
    expect(await textsOf(first)).toEqual([]);
    await updateNotification(practiceId, n.notificationId, { assigned: null }, { userId: 'bulk-seed' });
    await eventually(
      'under no assignee',
      () => textsOf(second),
      (t) => t.length === 0,
    );
  });

  it('a notification assigned before the by-person copies were kept is found by filtering until the backfill ran, then from its partition', async () => {
    const { practiceId } = stackEndpoints();
    const older = `older-${run}`;
    const n = await createNotification(practiceId, { notificationType: 'FAX', text: `Older ${run}`, assigned: older }, { userId: 'bulk-seed' });
    // As written before: no copy, and no marker.
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: `NOTIFPEOPLE#${n.notificationId}` } }));
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: NOTIFICATION_PEOPLE_MARKER } }));
    const list = () => api(admin, 'GET', `/v1/notifications?notificationType=FAX&assigned=${older}`);
    const before = await list();
    expect(before.body.notifications.map((x: { text: string }) => x.text)).toEqual([`Older ${run}`]);
    expect(await backfillNotificationPeopleKeys(practiceId)).toBeGreaterThanOrEqual(61);
    const after = await eventually('listed from its partition', list, (res) => res.body.notifications.length === 1);
    const reads = [before, after].map((r) => Number(r.headers.get(ITEMS_READ_HEADER)));
    console.log(`notifications of an assignee before the backfill\t${reads[0]}\tafter\t${reads[1]}`);
    expect(reads[0]).toBeGreaterThan(SEEDED);
    expect(reads[1]).toBeLessThanOrEqual(3);
    expect(await backfillNotificationPeopleKeys(practiceId)).toBe(0);
  });

  it('the unread notification count polled by every screen reads one item, and counts each seeded fax', async () => {
    // Of the 300 faxes: 225 unread, 45 of them assigned to the provider (other files may add more).
    const res = await api(provider, 'GET', '/v1/notifications/unread-count');
    expect(res.status).toBe(200);
    expect(res.body.byType.FAX).toBeGreaterThanOrEqual(225);
    expect(res.body.assignedToMe).toBe(45);
    const read = Number(res.headers.get(ITEMS_READ_HEADER));
    console.log(`notifications unread-count\t${read}`);
    expect(read).toBeLessThanOrEqual(2);
  });

  it('the catch-up after a reconnect reads one answer of the change log, newest first, and says when more changed', async () => {
    // A browser away while 150 faxes came in (the change log keeps 7 days, so they are logged now).
    const { practiceId } = stackEndpoints();
    const left = new Date(Date.now() - 1_000).toISOString();
    await inBatches(
      Array.from({ length: 150 }, (_, i) => i),
      25,
      (i) => createNotification(practiceId, { notificationType: 'FAX', text: `Missed fax ${run} ${i}` }, { userId: 'bulk-seed' }),
    );
    const res = await api(provider, 'GET', `/v1/notifications?since=${encodeURIComponent(left)}`);
    const answered = new Date().toISOString();
    expect(res.status).toBe(200);
    expect(res.body.complete).toBe(false);
    const list = res.body.notifications as { text: string }[];
    expect(list).toHaveLength(100);
    expect(list.every((n) => n.text.startsWith(`Missed fax ${run}`))).toBe(true);
    const read = Number(res.headers.get(ITEMS_READ_HEADER));
    console.log(`notifications since= (150 missed)\t${read}`);
    expect(read).toBeLessThanOrEqual(100 + 3);
    const recent = await api(provider, 'GET', `/v1/notifications?since=${encodeURIComponent(answered)}`);
    expect(recent.body.complete).toBe(true);
  });

  it('marking a conversation read or archiving it reads its own texts’ notifications, not the practice’s', async () => {
    const { practiceId } = stackEndpoints();
    // An unread text in each of 150 seeded conversations, as the inbound webhook writes them.
    const texts = Array.from({ length: 150 }, (_, i) => seedConversation(i));
    await inBatches(texts, 25, (c) =>
      createNotification(
        practiceId,
        {
          notificationType: 'SMS',
          sourceId: c.conversationId,
          text: `Bulk text ${run}`,
          data: { from: c.patientPhoneNumber, to: c.practicePhoneNumber, conversationId: c.conversationId },
        },
        { userId: 'bulk-seed' },
      ),
    );
    const chosen = texts[42]!;
    const read = await api(admin, 'PUT', `/v1/messaging/conversations/${chosen.conversationId}/mark-as-read`);
    expect(read.status).toBe(200);
    const readItems = Number(read.headers.get(ITEMS_READ_HEADER));
    console.log(`conversation mark-as-read (150 unread texts elsewhere)\t${readItems}`);
    expect(readItems).toBeLessThanOrEqual(12);
    const mine = await api(admin, 'GET', `/v1/notifications?sourceId=${chosen.conversationId}&notificationType=SMS&notificationStatus=UNREAD,READ,COMPLETED`);
    expect(mine.body.notifications.map((n: { notificationStatus: string }) => n.notificationStatus)).toEqual(['READ']);
    const other = await api(admin, 'GET', `/v1/notifications?sourceId=${texts[43]!.conversationId}&notificationType=SMS`);
    expect(other.body.notifications.map((n: { notificationStatus: string }) => n.notificationStatus)).toEqual(['UNREAD']);
    const archived = await api(admin, 'PUT', `/v1/messaging/conversations/${chosen.conversationId}/archive`);
    expect(archived.status).toBe(200);
    expect(Number(archived.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(12);
  });

  describe(`with ${SEEDED} phone calls`, () => {
    it('the call list shows the newest page with the practice’s total, and a day’s calls with that day’s total, each from one page', async () => {
      const all = await api(admin, 'GET', '/v1/phone-calls');
      expect(all.status).toBe(200);
      expect(all.body.total).toBeGreaterThanOrEqual(SEEDED);
      const calls = all.body.calls as { createdAt: string }[];
      expect(calls).toHaveLength(100);
      expect(calls.map((c) => c.createdAt)).toEqual(
        calls
          .map((c) => c.createdAt)
          .sort()
          .reverse(),
      );
      expect(Number(all.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(BOUND);

      const day = await api(admin, 'GET', '/v1/phone-calls?fromDate=2026-01-01&toDate=2026-01-01&order=asc&offset=50&limit=50');
      expect(day.status).toBe(200);
      expect(day.body.total).toBe(callsOnDayBefore + SEEDED);
      const onDay = day.body.calls as { ident: string; createdAt: string }[];
      expect(onDay).toHaveLength(50);
      expect(onDay.every((c) => c.createdAt.startsWith('2026-01-01'))).toBe(true);
      expect(onDay.map((c) => c.createdAt)).toEqual(onDay.map((c) => c.createdAt).sort());
      const read = Number(day.headers.get(ITEMS_READ_HEADER));
      console.log(`phone-calls list\t${all.headers.get(ITEMS_READ_HEADER)}\tone day, second page\t${read}`);
      expect(read).toBeLessThanOrEqual(BOUND);
      const none = await api(admin, 'GET', '/v1/phone-calls?fromDate=2026-01-02&toDate=2026-01-01');
      expect(none.body).toMatchObject({ calls: [], total: 0 });
    });

    it('the unread call count polled by the Communication badge reads one item and follows each call’s status', async () => {
      const res = await api(admin, 'GET', '/v1/phone-calls/count');
      expect(res.status).toBe(200);
      // 200 of the 300 are unread (other files may add more in between).
      expect(res.body.count).toBeGreaterThanOrEqual(callsBefore + 200);
      const read = Number(res.headers.get(ITEMS_READ_HEADER));
      console.log(`phone-calls count\t${read}`);
      expect(read).toBeLessThanOrEqual(2);
      const { practiceId } = stackEndpoints();
      await deleteCall(practiceId, `bulk-${run}-1`);
      const marked = await api(admin, 'PUT', `/v1/phone-calls/bulk-${run}-2`, { status: 'READ', assigned: null, patientId: null });
      expect(marked.status, JSON.stringify(marked.body)).toBe(200);
      const after = await api(admin, 'GET', '/v1/phone-calls/count');
      expect(after.body.count).toBe(res.body.count - 2);
    });
  });
});

/*
 * The practice export (one batch of patients per step) maps each patient's chart: what it reads for
 * one patient must be that patient's, however many appointments and calls the practice holds.
 */
describe(`a chart in the practice export, with ${SEEDED} appointments and ${SEEDED} calls in the practice`, () => {
  let charted: string;

  beforeAll(async () => {
    const p = await api(admin, 'POST', '/v1/patients', { firstName: 'Charted', lastName: `Patient${run}`, gender: 'male', dob: '1971-01-01' });
    expect(p.status).toBe(201);
    charted = p.body.id;
    const { practiceId } = stackEndpoints();
    const visit = { ...seedAppointment(400), appointmentId: `charted-${run}`, patientId: charted };
    await writeAppointments(
      practiceId,
      [{ next: visit, seriesEnd: new Date(Date.parse(visit.start) + 30 * 60_000).toISOString(), previousUpdatedAt: null }],
      [],
    );
    await Promise.all([seedCall(practiceId, 2, charted), seedCall(practiceId, 1, charted)]);
  });

  it('reads the patient’s appointments and calls from the patient’s keys, not the practice’s', async () => {
    const { practiceId } = stackEndpoints();
    const directory = await loadPracticeDirectory(practiceId);
    const { source, read } = await withReadMeter(async () => ({ source: await loadChartSource(practiceId, charted, { directory }), read: itemsRead() }));
    expect(source.appointments.map((a) => a.appointmentId)).toEqual([`charted-${run}`]);
    // Oldest first, as the export lists them.
    expect(source.calls.map((c) => c.ident)).toEqual([`bulk-${run}-${charted}-1`, `bulk-${run}-${charted}-2`]);
    console.log(`practice export, one patient's chart\t${read}`);
    expect(read).toBeLessThanOrEqual(10);
    const chart = await api(admin, 'GET', `/v1/patients/${charted}/fhir-export`);
    expect(chart.status, JSON.stringify(chart.body)).toBe(200);
    const routeRead = Number(chart.headers.get(ITEMS_READ_HEADER));
    console.log(`GET /v1/patients/{patientId}/fhir-export\t${routeRead}`);
    expect(routeRead).toBeLessThanOrEqual(BOUND);
  });

  it('finds a call given its patient before calls had a patient key, and once the backfill ran, from the key', async () => {
    const { practiceId } = stackEndpoints();
    const older = `older-${run}`;
    // As a call written before the key: no gsi2 attributes, and a practice not yet marked.
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          practiceId,
          sk: callKey(older),
          entityType: 'CALL',
          ident: older,
          direction: 'INBOUND',
          status: 'READ',
          callStatus: 'completed',
          caller: '+15035550142',
          recipient: PRACTICE_PHONE,
          patientId: charted,
          createdAt: '2025-06-01T10:00:00.000Z',
          updatedAt: '2025-06-01T10:00:00.000Z',
        },
      }),
    );
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: CALL_PATIENT_KEYS_MARKER } }));
    expect((await listPatientCalls(practiceId, charted)).map((c) => c.ident)[0]).toBe(older);
    expect(await backfillCallPatientKeys(practiceId)).toBeGreaterThanOrEqual(1);
    const { idents, read } = await withReadMeter(async () => ({
      idents: (await listPatientCalls(practiceId, charted)).map((c) => c.ident),
      read: itemsRead(),
    }));
    expect(idents).toEqual([older, `bulk-${run}-${charted}-1`, `bulk-${run}-${charted}-2`]);
    expect(read).toBeLessThanOrEqual(4);
    expect(await backfillCallPatientKeys(practiceId)).toBe(0);
  });
});

/* Seeded after the loop over every list route, which therefore does not show them. */
describe(`with ${SEEDED} contacts`, () => {
  // Contact i has call i's caller as its phone; every third also a fax number of its own.
  const phoneOf = (i: number) => `+1503${String(8_000_000 + i).padStart(7, '0')}`;
  const faxOf = (i: number) => `+1458${String(6_000_000 + i).padStart(7, '0')}`;
  const nameOf = (i: number) => `Bulk${run} Contact ${i}`;

  beforeAll(async () => {
    await inBatches(
      Array.from({ length: SEEDED }, (_, i) => i),
      10,
      async (i) => {
        const res = await api(admin, 'POST', '/v2/practices/contacts', {
          name: nameOf(i),
          phoneNumber: phoneOf(i),
          ...(i % 3 === 0 ? { faxNumber: faxOf(i) } : {}),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      },
    );
  }, 240_000);

  it('a number names its contact from the number’s own lookup, by phone or by fax', async () => {
    const byFax = await api(admin, 'GET', `/v2/practices/contacts?phoneNumber=${encodeURIComponent(faxOf(150))}`);
    expect(byFax.status).toBe(200);
    expect(byFax.body.contacts.map((c: { name: string }) => c.name)).toEqual([nameOf(150)]);
    const byPhone = await api(admin, 'GET', `/v2/practices/contacts?phoneNumber=${encodeURIComponent(phoneOf(151))}`);
    expect(byPhone.body.contacts).toMatchObject([{ name: nameOf(151), phoneNumber: phoneOf(151), faxNumber: null }]);
    const none = await api(admin, 'GET', `/v2/practices/contacts?phoneNumber=${encodeURIComponent('+14585550199')}`);
    expect(none.body.contacts).toEqual([]);
    const read = Math.max(...[byFax, byPhone, none].map((r) => Number(r.headers.get(ITEMS_READ_HEADER))));
    console.log(`contacts by number\t${read}`);
    expect(read).toBeLessThanOrEqual(3);
  });

  it('the call list names each caller from its contact and reads only the page’s contacts', async () => {
    const day = await api(admin, 'GET', '/v1/phone-calls?fromDate=2026-01-01&toDate=2026-01-01&order=asc&offset=50&limit=50');
    expect(day.status).toBe(200);
    const calls = day.body.calls as { ident: string; callerName: string | null }[];
    const seeded = calls.filter((c) => c.ident.startsWith(`bulk-${run}-`));
    expect(seeded.length).toBeGreaterThan(40);
    for (const c of seeded) expect(c.callerName).toBe(nameOf(Number(c.ident.split('-').at(-1))));
    const read = Number(day.headers.get(ITEMS_READ_HEADER));
    console.log(`phone-calls list with ${SEEDED} contacts\t${read}`);
    expect(read).toBeLessThanOrEqual(BOUND);
  });

  it('a call search by name or number fragment reads a stretch of calls per request and finds each match by looking on', async () => {
    const search = async (filter: string) => {
      const found: string[] = [];
      const reads: number[] = [];
      let token: string | null = null;
      do {
        const res = await api(admin, 'GET', `/v1/phone-calls?fromDate=2026-01-01&toDate=2026-01-01&${filter}${token ? `&nextToken=${token}` : ''}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        reads.push(Number(res.headers.get(ITEMS_READ_HEADER)));
        found.push(...(res.body.calls as { ident: string }[]).map((c) => c.ident));
        token = res.body.nextToken;
      } while (token);
      return { found, reads };
    };
    const byName = await search(`query=${encodeURIComponent(`bulk${run} contact 29`)}`);
    expect(byName.found.sort()).toEqual([29, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299].map((i) => `bulk-${run}-${i}`).sort());
    const byCaller = await search(`caller=${encodeURIComponent('(503) 800-0150')}`);
    expect(byCaller.found).toEqual([`bulk-${run}-150`]);
    console.log(`phone-calls search, most read by one request\t${Math.max(...byName.reads, ...byCaller.reads)}\t(${byName.reads.length} requests)`);
    expect(Math.max(...byName.reads, ...byCaller.reads)).toBeLessThanOrEqual(BOUND);
    const bad = await api(
      admin,
      'GET',
      `/v1/phone-calls?query=x&fromDate=2026-02-01&nextToken=${Buffer.from(`2026-01-01T00:00:00.000Z#bulk-${run}-3`).toString('base64url')}`,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Invalid nextToken');
  });

  const namesOf = (res: { body: { contacts: { name: string }[] } }) => res.body.contacts.map((c) => c.name);

  it('the contact book reads one page in name order, and the next page goes on where it stopped', async () => {
    const first = await api(admin, 'GET', '/v2/practices/contacts');
    expect(first.status).toBe(200);
    expect(first.body.contacts).toHaveLength(CONTACT_PAGE.size);
    const lower = (names: string[]) => names.map((n) => n.toLowerCase());
    expect(lower(namesOf(first))).toEqual(lower(namesOf(first)).sort());
    const second = await api(admin, 'GET', `/v2/practices/contacts?limit=100&nextToken=${first.body.nextToken}`);
    expect(second.body.contacts).toHaveLength(100);
    expect(lower(namesOf(second))[0]! >= lower(namesOf(first)).at(-1)!).toBe(true);
    const ids = new Set([...first.body.contacts, ...second.body.contacts].map((c: { contactId: string }) => c.contactId));
    expect(ids.size).toBe(150);
    const reads = [first, second].map((r) => Number(r.headers.get(ITEMS_READ_HEADER)));
    console.log(`contact book first page\t${reads[0]}\tsecond page of 100\t${reads[1]}`);
    expect(reads[0]).toBeLessThanOrEqual(CONTACT_PAGE.size + 2);
    expect(reads[1]).toBeLessThanOrEqual(102);
  });

  it('a search looks through a bounded stretch of the book per page and finds each seeded contact by name or number', async () => {
    const find = async (search: string) => {
      const found: string[] = [];
      let token: string | null = null;
      let most = 0;
      do {
        const res = await api(admin, 'GET', `/v2/practices/contacts?search=${encodeURIComponent(search)}${token ? `&nextToken=${token}` : ''}`);
        expect(res.status).toBe(200);
        most = Math.max(most, Number(res.headers.get(ITEMS_READ_HEADER)));
        found.push(...namesOf(res));
        token = res.body.nextToken;
      } while (token);
      return { found, most };
    };
    const byName = await find(`bulk${run} contact 299`);
    expect(byName.found).toEqual([nameOf(299)]);
    const byFax = await find(formatPhone(faxOf(297)));
    expect(byFax.found).toEqual([nameOf(297)]);
    // Every seeded contact matches: each page holds a full page of them, best first.
    const everyone = await api(admin, 'GET', `/v2/practices/contacts?search=Bulk${run}`);
    expect(everyone.body.contacts).toHaveLength(CONTACT_PAGE.size);
    console.log(`contact search, most read by one page\t${Math.max(byName.most, byFax.most)}`);
    expect(Math.max(byName.most, byFax.most)).toBeLessThanOrEqual(CONTACT_PAGE.searchScan + 2);
  });

  it('a contact saved before numbers had lookups is found by its number once the start-up backfill ran', async () => {
    const { practiceId } = stackEndpoints();
    const older = {
      contactId: `older-${run}`,
      name: `Older${run}`,
      lastName: null,
      phoneNumber: '+14585550177',
      faxNumber: null,
      email: null,
      groups: [],
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    };
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...older, practiceId, sk: contactKey(older.contactId), entityType: 'CONTACT' } }),
    );
    const byNumber = () => api(admin, 'GET', `/v2/practices/contacts?phoneNumber=${encodeURIComponent(older.phoneNumber)}`);
    expect((await byNumber()).body.contacts).toEqual([]);
    // As in a data folder written before the lookups: no marker, so the whole book is read until the backfill.
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: CONTACT_NUMBERS_MARKER } }));
    expect((await byNumber()).body.contacts).toMatchObject([{ contactId: older.contactId }]);
    // The book's pages are cut from the whole book meanwhile, in the same order.
    const page = await api(admin, 'GET', `/v2/practices/contacts?limit=100&nextToken=${Buffer.from(`older${run}`).toString('base64url')}`);
    expect(namesOf(page)[0]).toBe(older.name);
    expect(await backfillContactNumbers(practiceId)).toBeGreaterThanOrEqual(SEEDED + 1);
    // The backfill of a busy machine can outlast the caller's cached access: re-reading it is not the lookup's cost.
    await byNumber();
    const after = await byNumber();
    expect(after.body.contacts).toMatchObject([{ contactId: older.contactId, name: older.name }]);
    expect(Number(after.headers.get(ITEMS_READ_HEADER))).toBeLessThanOrEqual(2);
    expect(await backfillContactNumbers(practiceId)).toBe(0);
  });
});

/*
 * Seeded after the loop over every list route, which therefore does not show them.
 */
describe(`with ${SEEDED} faxes`, () => {
  const faxRun = `fx${run}`;
  let faxesOnDayBefore: number;
  // Fax i: inbound when even, every third still queued; its cover names it.
  const seedFax = (practiceId: string, i: number) => {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000 + 30_000).toISOString();
    const inbound = i % 2 === 0;
    const number = `+1458${String(7_000_000 + i).padStart(7, '0')}`;
    return putFax(practiceId, {
      ident: `bulk-${faxRun}-${i}`,
      faxId: null,
      direction: inbound ? 'INBOUND' : 'OUTBOUND',
      status: i % 3 === 0 ? 'QUEUED' : 'COMPLETED',
      sender: inbound ? number : PRACTICE_PHONE,
      recipient: inbound ? PRACTICE_PHONE : number,
      recipientName: null,
      patientId: null,
      patientName: null,
      sourceNoteId: null,
      // Every fifth left a note in a chart (a note this file does not write: listed, not shown).
      faxNoteId: i % 5 === 0 ? `note-${faxRun}-${i}` : null,
      fileKey: `bulk/${faxRun}-${i}.pdf`,
      pages: 1,
      coverText: `Cover ${faxRun} ${i}`,
      errorMessage: null,
      read: true,
      attempts: 1,
      createdAt: at,
      updatedAt: at,
    });
  };

  beforeAll(async () => {
    const { practiceId } = stackEndpoints();
    faxesOnDayBefore = (await api(admin, 'GET', '/v1/faxes?fromDate=2026-01-01&toDate=2026-01-01')).body.total;
    await inBatches(
      Array.from({ length: SEEDED }, (_, i) => i),
      25,
      (i) => seedFax(practiceId, i),
    );
  }, 240_000);

  it('the fax list shows the newest page with the practice’s total, and a day’s faxes with that day’s total, each from one page', async () => {
    const all = await api(admin, 'GET', '/v1/faxes');
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(SEEDED);
    const faxes = all.body.faxes as { createdAt: string }[];
    expect(faxes).toHaveLength(100);
    expect(faxes.map((f) => f.createdAt)).toEqual(
      faxes
        .map((f) => f.createdAt)
        .sort()
        .reverse(),
    );
    const day = await api(admin, 'GET', '/v1/faxes?fromDate=2026-01-01&toDate=2026-01-01&order=asc&offset=50&limit=50');
    expect(day.status).toBe(200);
    expect(day.body.total).toBe(faxesOnDayBefore + SEEDED);
    const onDay = day.body.faxes as { ident: string; createdAt: string }[];
    expect(onDay).toHaveLength(50);
    expect(onDay.every((f) => f.createdAt.startsWith('2026-01-01'))).toBe(true);
    expect(onDay.map((f) => f.createdAt)).toEqual(onDay.map((f) => f.createdAt).sort());
    const reads = [all, day].map((r) => Number(r.headers.get(ITEMS_READ_HEADER)));
    console.log(`faxes list\t${reads[0]}\tone day, second page\t${reads[1]}`);
    expect(Math.max(...reads)).toBeLessThanOrEqual(BOUND);
    const none = await api(admin, 'GET', '/v1/faxes?fromDate=2026-01-02&toDate=2026-01-01');
    expect(none.body).toMatchObject({ faxes: [], total: 0 });
  });

  it('the fax notes of every direction and of inbound faxes read their page from the index, with their totals', async () => {
    // Of the seeded 300, every fifth has a note: 60, the 30 of them inbound (other files may add more).
    const all = await api(admin, 'GET', '/v1/notes/faxes?direction=all&offset=25&limit=25');
    const inbound = await api(admin, 'GET', '/v1/notes/faxes?direction=inbound&offset=25&limit=25');
    for (const res of [all, inbound]) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(60);
    expect(inbound.body.total).toBeGreaterThanOrEqual(30);
    expect(all.body.total - inbound.body.total).toBeGreaterThanOrEqual(30);
    const reads = [all, inbound].map((r) => Number(r.headers.get(ITEMS_READ_HEADER)));
    console.log(`fax notes, second page of all\t${reads[0]}\tof inbound\t${reads[1]}`);
    // Both directions' partitions up to the page's end, the notes and the counts item.
    expect(reads[0]).toBeLessThanOrEqual(2 * 50 + 25 + 1);
    expect(reads[1]).toBeLessThanOrEqual(50 + 25 + 1);
  });

  it('a fax search or a direction or status filter reads a stretch of faxes per request and finds each match by looking on', async () => {
    const search = async (filter: string) => {
      const found: string[] = [];
      const reads: number[] = [];
      let token: string | null | undefined = null;
      do {
        const res = await api(admin, 'GET', `/v1/faxes?fromDate=2026-01-01&toDate=2026-01-01&limit=500&${filter}${token ? `&nextToken=${token}` : ''}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        reads.push(Number(res.headers.get(ITEMS_READ_HEADER)));
        found.push(...(res.body.faxes as { ident: string }[]).map((f) => f.ident));
        token = res.body.nextToken;
      } while (token);
      return { found, reads };
    };
    const byCover = await search(`query=${encodeURIComponent(`cover ${faxRun} 29`)}`);
    expect(byCover.found.sort()).toEqual([29, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299].map((i) => `bulk-${faxRun}-${i}`).sort());
    const bySender = await search(`sender=${encodeURIComponent('(458) 700-0150')}`);
    expect(bySender.found).toEqual([`bulk-${faxRun}-150`]);
    const queuedInbound = await search('direction=INBOUND&status=QUEUED');
    const seeded = queuedInbound.found.filter((ident) => ident.startsWith(`bulk-${faxRun}-`));
    expect(seeded.sort()).toEqual(
      Array.from({ length: SEEDED }, (_, i) => i)
        .filter((i) => i % 6 === 0)
        .map((i) => `bulk-${faxRun}-${i}`)
        .sort(),
    );
    const most = Math.max(...byCover.reads, ...bySender.reads, ...queuedInbound.reads);
    console.log(`faxes search, most read by one request\t${most}\t(${byCover.reads.length} requests)`);
    expect(most).toBeLessThanOrEqual(BOUND);
    const bad = await api(
      admin,
      'GET',
      `/v1/faxes?query=x&fromDate=2026-02-01&nextToken=${Buffer.from(`2026-01-01T00:00:00.000Z#bulk-${faxRun}-3`).toString('base64url')}`,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Invalid nextToken');
  });

  it('a fax written before the list had keys is listed from every fax until the start-up backfill ran, then from the index', async () => {
    const { practiceId } = stackEndpoints();
    const older = `older-${faxRun}`;
    const at = '2025-06-01T10:00:00.000Z';
    // As a fax written before the keys: no gsi1 attributes, and counts not yet marked listed.
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          practiceId,
          sk: faxKey(older),
          entityType: 'FAX',
          ident: older,
          direction: 'INBOUND',
          status: 'COMPLETED',
          sender: '+14585550123',
          recipient: PRACTICE_PHONE,
          fileKey: `older/${faxRun}.pdf`,
          read: false,
          attempts: 1,
          createdAt: at,
          updatedAt: at,
        },
      }),
    );
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: FAX_COUNTS_KEY } }));
    const identsOf = (res: { body: { faxes: { ident: string }[] } }) => res.body.faxes.map((f) => f.ident);
    const onDay = () => api(admin, 'GET', '/v1/faxes?fromDate=2025-06-01&toDate=2025-06-01');
    const before = await onDay();
    expect(before.status).toBe(200);
    expect(identsOf(before)).toContain(older);
    expect(before.body.total).toBe(before.body.faxes.length);
    expect(await backfillFaxListKeys(practiceId)).toBeGreaterThanOrEqual(SEEDED + 1);
    const after = await onDay();
    expect(identsOf(after)).toEqual(identsOf(before));
    expect(after.body.total).toBe(before.body.total);
    const first = await api(admin, 'GET', '/v1/faxes?limit=10');
    expect(first.body.total).toBeGreaterThanOrEqual(SEEDED + 1);
    const reads = [before, after, first].map((r) => Number(r.headers.get(ITEMS_READ_HEADER)));
    console.log(`faxes of one day before the backfill\t${reads[0]}\tafter\t${reads[1]}\tfirst 10 after\t${reads[2]}`);
    expect(reads[0]).toBeGreaterThan(SEEDED);
    expect(reads[1]).toBeLessThanOrEqual(after.body.total + 2);
    expect(reads[2]).toBeLessThanOrEqual(11);
    expect(await backfillFaxListKeys(practiceId)).toBe(0);
  });

  it('a fax given its note before the fax notes had keys is among them from every fax until the backfill ran, then from the index', async () => {
    const { practiceId } = stackEndpoints();
    const older = `older-noted-${faxRun}`;
    const at = '2027-06-01T10:00:00.000Z';
    // As written before the fax notes' keys: a note, no gsi2 attributes, and the counts not marked.
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          practiceId,
          sk: faxKey(older),
          entityType: 'FAX',
          ident: older,
          direction: 'INBOUND',
          status: 'COMPLETED',
          sender: '+14585550124',
          recipient: PRACTICE_PHONE,
          faxNoteId: `note-${older}`,
          fileKey: `older/${older}.pdf`,
          read: false,
          attempts: 1,
          createdAt: at,
          updatedAt: at,
        },
      }),
    );
    await documentClient().send(new UpdateCommand({ TableName: tableName(), Key: { practiceId, sk: FAX_COUNTS_KEY }, UpdateExpression: 'REMOVE notesListed' }));
    const inbound = () => api(admin, 'GET', '/v1/notes/faxes?direction=inbound&limit=10');
    const before = await inbound();
    expect(before.status).toBe(200);
    expect(await backfillFaxNoteKeys(practiceId)).toBeGreaterThanOrEqual(SEEDED + 1);
    const after = await inbound();
    expect(after.body.total).toBe(before.body.total);
    expect(after.body.total).toBeGreaterThanOrEqual(31);
    // One note of all directions: one fax of each direction's partition and the counts item.
    const one = await api(admin, 'GET', '/v1/notes/faxes?direction=all&limit=1');
    const reads = [before, after, one].map((r) => Number(r.headers.get(ITEMS_READ_HEADER)));
    console.log(`fax notes before the backfill\t${reads[0]}\tafter\t${reads[1]}\tfirst of all\t${reads[2]}`);
    expect(reads[0]).toBeGreaterThan(SEEDED);
    // Each bound leaves one read for the caller's access record, re-read when its 30 s cache has lapsed.
    expect(reads[1]).toBeLessThanOrEqual(10 + 1 + 1);
    expect(reads[2]).toBeLessThanOrEqual(3 + 1);
    expect(await backfillFaxNoteKeys(practiceId)).toBe(0);
  });
});

/*
 * Patient list and search rank an in-memory copy of the practice's patients (the fuzzy phone rules
 * cannot be keyed). What must stay page-bounded is keeping that copy current: after one patient
 * write the next list or search reads the changed patient, not the practice's patients again.
 */
describe(`with ${SEEDED} more patients`, () => {
  const lastName = `Zzbulk${run}`;
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  const readOf = (res: { headers: Headers }) => Number(res.headers.get(ITEMS_READ_HEADER));
  const idsOf = (res: { body: { items: { id: string }[] } }) => res.body.items.map((p) => p.id);

  beforeAll(async () => {
    const { practiceId } = stackEndpoints();
    const patients = Array.from({ length: SEEDED }, (_, i) =>
      Patient.parse({
        id: `bulk-${run}-${String(i).padStart(4, '0')}`,
        firstName: `Person${i}`,
        lastName,
        gender: 'other',
        membershipStatus: 'active',
        status: 'active',
        createdAt: at,
        updatedAt: at,
      }),
    );
    await putPatientsBatch(practiceId, patients);
    // The bulk load replaces every cached list; wait until the list is cached, settled, and costs its version read only.
    await eventually(
      'the patient list served from the cache',
      () => api(admin, 'GET', '/v1/patients?limit=1'),
      (res) => readOf(res) <= 1,
      { within: 20_000, every: 200 },
    );
  }, 120_000);

  it('a list and a search right after one patient write read the changed patients, not the practice’s patients', async () => {
    const before = await api(admin, 'GET', `/v1/patients?q=${lastName}&limit=100`);
    expect(before.body.total).toBe(SEEDED);
    const activeBefore = await api(admin, 'GET', '/v1/patients?limit=1');

    const created = await api(admin, 'POST', '/v1/patients', { firstName: 'Aaanew', lastName, gender: 'female', dob: '1980-02-02' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = await api(admin, 'GET', '/v1/patients?limit=100');
    expect(list.status).toBe(200);
    const afterWrite = readOf(list);

    const renamed = await api(admin, 'PUT', `/v1/patients/bulk-${run}-0007`, { firstName: 'Quillon', lastName, gender: 'other' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const search = await api(admin, 'GET', `/v1/patients?q=${lastName}&limit=100`);
    expect(search.status).toBe(200);
    const searchAfterWrite = readOf(search);
    const byNewName = await api(admin, 'GET', `/v1/patients?q=quillon`);

    console.log(`patient list after one write\t${afterWrite}\tsearch after one write\t${searchAfterWrite}\t(${SEEDED} seeded patients)`);
    // The version, the write's change item and the written patient: the rest come from the cached list.
    expect(afterWrite).toBeLessThanOrEqual(3);
    expect(searchAfterWrite).toBeLessThanOrEqual(3);
    expect(list.body.total).toBe(activeBefore.body.total + 1);
    expect(search.body.total).toBe(SEEDED + 1);
    // The new patient at its name's place (first of the seeded last name), the renamed one found by its new name.
    expect(idsOf(search)[0]).toBe(created.body.id);
    expect(idsOf(byNewName)).toEqual([`bulk-${run}-0007`]);
  });
});

describe('the notes timeline of a patient with hundreds of notes', () => {
  const NOTES = 240;
  let heavy: string;
  /** Signed visit notes, every tenth still a draft; the newest is 239. */
  const heavyNote = (i: number): Note => {
    const { signedBy, ...note } = seedChartNote(i, 'NOTE');
    const draft = i % 10 === 0;
    return { ...note, noteId: `heavy-${run}-${i}`, patientId: heavy, ...(draft ? { status: 'DRAFT', signed: null } : { signedBy }) };
  };
  const signedIds = Array.from({ length: NOTES }, (_, i) => NOTES - 1 - i)
    .filter((i) => i % 10 !== 0)
    .map((i) => `heavy-${run}-${i}`);
  const read = (res: { headers: Headers }) => Number(res.headers.get(ITEMS_READ_HEADER));

  beforeAll(async () => {
    const p = await api(admin, 'POST', '/v1/patients', { firstName: 'Heavy', lastName: `Chart${run}`, gender: 'male', dob: '1950-05-05' });
    heavy = p.body.id;
    await inBatches(
      Array.from({ length: NOTES }, (_, i) => i),
      25,
      (i) => insertNote(stackEndpoints().practiceId, heavyNote(i)),
    );
  }, 120_000);

  it('reads a page and one more of the signed notes, not the chart, and says whether more follow', async () => {
    const first = await api(provider, 'GET', `/v2/notes?patientId=${heavy}&offset=0&limit=50`);
    expect(first.status).toBe(200);
    expect(first.body.notes.map((n: Note) => n.noteId)).toEqual(signedIds.slice(0, 50));
    expect(first.body).toMatchObject({ hasMore: true, offset: 0, limit: 50 });
    expect(first.body.total).toBeUndefined();
    console.log(`GET /v2/notes, first page of ${NOTES} notes\t${read(first)}`);
    // The marker, and the 51 signed notes with the drafts between them (a tenth): not the 240.
    expect(read(first)).toBeLessThanOrEqual(65);

    const second = await api(provider, 'GET', `/v2/notes?patientId=${heavy}&offset=50&limit=50`);
    expect(second.body.notes.map((n: Note) => n.noteId)).toEqual(signedIds.slice(50, 100));
    expect(read(second)).toBeLessThanOrEqual(125);

    // The last page reaches the end: its total is known, and no page follows.
    const last = await api(provider, 'GET', `/v2/notes?patientId=${heavy}&offset=200&limit=50`);
    expect(last.body.notes.map((n: Note) => n.noteId)).toEqual(signedIds.slice(200));
    expect(last.body).toMatchObject({ hasMore: false, total: signedIds.length });
  });

  it('finds the sparse drafts by reading further, and the open note with any page', async () => {
    const drafts = await api(provider, 'GET', `/v2/notes?patientId=${heavy}&statuses=DRAFT&offset=0&limit=50`);
    expect(drafts.body.notes.map((n: Note) => n.noteId)).toEqual(Array.from({ length: NOTES / 10 }, (_, k) => `heavy-${run}-${NOTES - 10 - 10 * k}`));
    expect(drafts.body).toMatchObject({ hasMore: false, total: NOTES / 10 });

    const withOpen = await api(provider, 'GET', `/v2/notes?patientId=${heavy}&offset=0&limit=50&currentNoteId=heavy-${run}-5`);
    expect(withOpen.body.currentNote).toMatchObject({ noteId: `heavy-${run}-5`, status: 'SIGNED' });
    expect(read(withOpen)).toBeLessThanOrEqual(66);
  });
});
