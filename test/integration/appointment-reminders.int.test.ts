import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleAdapterFromEnv, type ScheduleAdapter } from '../../functions/lib/adapters/scheduler.js';
import { resetDocumentClient } from '../../functions/lib/table/client.js';
import { fireAppointmentReminder, reminderScheduleName } from '../../functions/core/calendar/appointment-reminders.js';
import { handler as scheduleTarget } from '../../functions/workers/schedule-target/handler.js';
import { eventually, eventuallyFound, untilTime } from '../support/eventually.js';
import { api, createTestUser, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';

const PRACTICE_PHONE = '+15415550100';
const ZONE = 'America/Chicago';
const HOUR = 3_600_000;
const run = Date.now().toString(36);
let admin: string;
let employee: string;
let typeId: string;
let typeName: string;
let locationId: string;
let schedules: ScheduleAdapter;

let phoneSeq = 0;
/** A phone no other test uses: the carrier's opt-out list and the conversations outlive a test. */
const newPhone = () =>
  `+1972${String(Date.now() % 1_000_000)
    .padStart(6, '0')
    .slice(0, 3)}${String((phoneSeq++ * 37 + Math.floor(Math.random() * 1000)) % 10_000).padStart(4, '0')}`;
const local = (path: string, init?: RequestInit) => fetch(`${stackOutputs().webUrl}${path}`, init);
async function carrierTextsTo(phone: string): Promise<{ from: string; to: string; text: string }[]> {
  const body = (await (await local('/local/carrier/sms')).json()) as { messages: { from: string; to: string; text: string }[] };
  return body.messages.filter((m) => m.to === phone);
}
/** YYYY-MM-DD of an instant in the practice's zone: the occurrence's day. */
const dayOf = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
const reminderAt = async (appointmentId: string, start: string) =>
  (await schedules.get(reminderScheduleName(appointmentId, dayOf(start))))?.at.toISOString() ?? null;

async function patient(phone: string | null): Promise<string> {
  const body = {
    firstName: 'Rita',
    lastName: `Reminder${run}`,
    gender: 'female',
    dob: '1975-06-07',
    ...(phone ? { phones: [{ type: 'mobile', number: phone }], primaryPhoneNumber: phone } : {}),
  };
  const p = await api(employee, 'POST', '/v1/patients', body);
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  return p.body.id as string;
}
/** Each booking has its own provider, so no two tests' appointments double-book one. */
async function book(patientId: string, start: string, over: Record<string, unknown> = {}) {
  const provider = await createTestUser({ email: `rem-${run}-${phoneSeq++}@demo.test`, group: 'provider', firstName: 'Remi', lastName: `Doc${run}` });
  const providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId as string;
  const res = await api(employee, 'POST', '/v1/appointments', {
    patientId,
    appointmentTypeId: typeId,
    providerId,
    bookingLocationId: locationId,
    visitType: 'in_person',
    durationMinutes: 30,
    start,
    notes: 'Discuss the new medication dose',
    ...over,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { appointmentId: string; start: string; providerId: string; patientId: string };
}
const setLead = (reminderLeadHours: number | null) => api(admin, 'PUT', '/v1/practices/settings/calendar', { timeZone: ZONE, reminderLeadHours });

beforeAll(async () => {
  [admin, employee] = await Promise.all([signIn('admin@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
  typeName = `Suboxone follow-up ${run}`;
  const type = await api(admin, 'POST', '/v1/appointment-types', { name: typeName, durationMinutes: 30 });
  typeId = type.body.ident;
  const location = await api(admin, 'POST', '/v1/booking-locations', { name: `Riverside clinic ${run}`, address: '40 Elm St' });
  locationId = location.body.ident;
  const { dynamodb, tableName, practiceId, smsVoice, s3, scheduler, schedulerGroup } = stackEndpoints();
  // The target runs in this process too, as a second delivery of the same schedule would.
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamodb,
    TABLE_NAME: tableName,
    PRACTICE_ID: practiceId,
    AWS_REGION: stackOutputs().region,
    SMS_VOICE_ENDPOINT: smsVoice,
    SMS_CONFIGURATION_SET: 'tidewell-demo-sms',
    S3_ENDPOINT: s3,
    FILES_BUCKET: stackOutputs().filesBucket,
    SCHEDULER_ENDPOINT: scheduler,
    SCHEDULER_GROUP: schedulerGroup,
    SCHEDULER_TARGET_ARN: 'arn:aws:lambda:us-east-1:000000000000:function:schedule-target',
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/local',
    TIDEWELL_LOG: 'silent',
  });
  resetDocumentClient();
  schedules = scheduleAdapterFromEnv(process.env);
});

afterAll(async () => {
  await setLead(null);
});

describe('the reminder lead time setting', () => {
  it('admins choose it from the list or turn it off; others may not change it', async () => {
    const bad = await api(admin, 'PUT', '/v1/practices/settings/calendar', { timeZone: ZONE, reminderLeadHours: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toMatchObject({ reminderLeadHours: 'Choose a reminder time from the list' });
    expect((await api(employee, 'PUT', '/v1/practices/settings/calendar', { timeZone: ZONE, reminderLeadHours: 24 })).status).toBe(403);
    expect((await setLead(24)).body).toMatchObject({ timeZone: ZONE, reminderLeadHours: 24 });
    // Saving the zone alone keeps the lead time.
    expect((await api(admin, 'PUT', '/v1/practices/settings/calendar', { timeZone: ZONE })).body.reminderLeadHours).toBe(24);
    expect((await api(employee, 'GET', '/v1/practices/settings/calendar')).body.reminderLeadHours).toBe(24);
  });
});

describe('appointment reminder texts', () => {
  it('booking schedules one reminder at the lead time before the start; moving reschedules it; cancelling removes it', async () => {
    expect((await setLead(24)).status).toBe(200);
    const patientId = await patient(newPhone());
    // 9:00 AM in Chicago (CST) on 3 March 2027: the reminder is 9:00 AM the day before.
    const a = await book(patientId, '2027-03-03T15:00:00.000Z');
    expect(await reminderAt(a.appointmentId, a.start)).toBe('2027-03-02T15:00:00.000Z');

    // Moved across the daylight-saving change to 10:30 AM CDT on 16 March: 10:30 AM CDT the day before.
    const moved = await api(employee, 'PUT', `/v1/appointments/${a.appointmentId}`, {
      patientId,
      appointmentTypeId: typeId,
      providerId: a.providerId,
      bookingLocationId: locationId,
      visitType: 'in_person',
      durationMinutes: 30,
      start: '2027-03-16T15:30:00.000Z',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await reminderAt(a.appointmentId, a.start)).toBeNull();
    expect(await reminderAt(a.appointmentId, moved.body.start)).toBe('2027-03-15T15:30:00.000Z');

    expect((await api(employee, 'DELETE', `/v1/appointments/${a.appointmentId}`)).status).toBe(200);
    expect(await reminderAt(a.appointmentId, moved.body.start)).toBeNull();
  });

  it('a weekly series schedules only its next reminder; changing one occurrence moves that day alone', async () => {
    expect((await setLead(24)).status).toBe(200);
    const patientId = await patient(newPhone());
    const first = '2027-04-05T14:00:00.000Z'; // Mondays 9:00 AM CDT
    const a = await book(patientId, first, { recurrence: { frequency: 'Weekly', end: 'NEVER' } });
    expect(await reminderAt(a.appointmentId, first)).toBe('2027-04-04T14:00:00.000Z');
    expect(await reminderAt(a.appointmentId, '2027-04-12T14:00:00.000Z')).toBeNull();

    // The first Monday alone moves to 11:00: it gets its own reminder, and the series' goes to the second Monday.
    const single = await api(employee, 'PUT', `/v1/appointments/${a.appointmentId}?occurrence=2027-04-05`, {
      patientId,
      appointmentTypeId: typeId,
      providerId: a.providerId,
      bookingLocationId: locationId,
      visitType: 'in_person',
      durationMinutes: 30,
      start: '2027-04-05T16:00:00.000Z',
    });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect(await reminderAt(single.body.appointmentId, '2027-04-05T16:00:00.000Z')).toBe('2027-04-04T16:00:00.000Z');
    expect(await reminderAt(a.appointmentId, first)).toBeNull();
    expect(await reminderAt(a.appointmentId, '2027-04-12T14:00:00.000Z')).toBe('2027-04-11T14:00:00.000Z');

    // Cancelling the second Monday alone moves the series' reminder to the third.
    expect((await api(employee, 'DELETE', `/v1/appointments/${a.appointmentId}?occurrence=2027-04-12`)).status).toBe(200);
    expect(await reminderAt(a.appointmentId, '2027-04-12T14:00:00.000Z')).toBeNull();
    expect(await reminderAt(a.appointmentId, '2027-04-19T14:00:00.000Z')).toBe('2027-04-18T14:00:00.000Z');

    for (const id of [a.appointmentId, single.body.appointmentId]) expect((await api(employee, 'DELETE', `/v1/appointments/${id}`)).status).toBe(200);
    expect(await reminderAt(a.appointmentId, '2027-04-19T14:00:00.000Z')).toBeNull();
  });

  it('the fired reminder is texted once from the practice number, is in the conversation, and schedules the next occurrence', async () => {
    expect((await setLead(1)).status).toBe(200);
    const phone = newPhone();
    const patientId = await patient(phone);
    // Appointments start on a whole minute: the next one at least an hour and a few seconds away.
    const start = new Date(Math.ceil((Date.now() + HOUR + 10_000) / 60_000) * 60_000).toISOString();
    const a = await book(patientId, start, { recurrence: { frequency: 'Daily', end: 'COUNT', count: 3 } });
    const at = await reminderAt(a.appointmentId, start);
    expect(at).toBe(new Date(Date.parse(start) - HOUR).toISOString());

    // The runtime's scheduler fires it; two more deliveries of the same schedule race it here.
    await untilTime(Date.parse(at!));
    const payload = { kind: 'appointment-reminder', practiceId: stackEndpoints().practiceId, appointmentId: a.appointmentId, occurrenceStart: start };
    await Promise.all([scheduleTarget(payload), scheduleTarget(payload)]);
    const texts = await eventuallyFound('the reminder text at the carrier', async () => {
      const t = await carrierTextsTo(phone);
      return t.length ? t : undefined;
    });
    // A fourth delivery, awaited: a text it sent would be at the carrier when it returns. The
    // runtime's own delivery is over once its one-time schedule is gone.
    await scheduleTarget(payload);
    await eventually(
      "the runtime's reminder schedule gone after it fired",
      () => reminderAt(a.appointmentId, start),
      (when) => when === null,
    );
    expect(await carrierTextsTo(phone)).toHaveLength(1);
    const time = new Date(start).toLocaleTimeString('en-US', { timeZone: ZONE, hour: 'numeric', minute: '2-digit' });
    const [y, m, d] = dayOf(start).split('-');
    expect(texts[0].from).toBe(PRACTICE_PHONE);
    expect(texts[0].text).toContain(`${m}/${d}/${y} at ${time} C`);
    expect(texts[0].text).toContain(`at Riverside clinic ${run}, 40 Elm St`);
    // Nothing clinical: not the appointment type, not the notes.
    expect(texts[0].text).not.toContain('Suboxone');
    expect(texts[0].text).not.toContain('medication');

    const conversation = await api(employee, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE });
    const messages = (await api(employee, 'GET', `/v1/messaging/conversations/${conversation.body.conversation.conversationId}/messages`)).body.messages as {
      text: string;
      direction: string;
      patientId: string;
    }[];
    expect(messages).toEqual([expect.objectContaining({ text: texts[0].text, direction: 'outbound', patientId })]);

    // The next day's reminder is now the pending one.
    const next = new Date(Date.parse(start) + 24 * HOUR).toISOString();
    expect(await reminderAt(a.appointmentId, next)).toBe(new Date(Date.parse(next) - HOUR).toISOString());
    expect((await api(employee, 'DELETE', `/v1/appointments/${a.appointmentId}`)).status).toBe(200);
    expect(await reminderAt(a.appointmentId, next)).toBeNull();
  }, 120_000);

  it('sends nothing for an appointment cancelled since, or to a patient who texted STOP or has no mobile number', async () => {
    expect((await setLead(1)).status).toBe(200);
    const stopped = newPhone();
    const stoppedId = await patient(stopped);
    const conversationId = (await api(employee, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: stopped, practicePhoneNumber: PRACTICE_PHONE }))
      .body.conversation.conversationId as string;
    const stop = await local('/local/carrier/sms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: stopped, to: PRACTICE_PHONE, text: 'STOP' }),
    });
    expect(stop.status).toBe(202);
    await eventually(
      'the conversation marked opted out',
      async () => (await api(employee, 'GET', `/v1/messaging/conversations/${conversationId}`)).body.optOut?.optedOut === true,
    );
    const cancelledPhone = newPhone();
    const cancelledId = await patient(cancelledPhone);
    const noMobileId = await patient(null);

    const start = '2027-06-07T14:00:00.000Z';
    const [optedOut, cancelled, noMobile] = [await book(stoppedId, start), await book(cancelledId, start), await book(noMobileId, start)];
    expect((await api(employee, 'DELETE', `/v1/appointments/${cancelled.appointmentId}`)).status).toBe(200);
    expect(await reminderAt(cancelled.appointmentId, start)).toBeNull();

    // Fired as at its reminder time, an hour before the start.
    const fire = (appointmentId: string) =>
      fireAppointmentReminder({ practiceId: stackEndpoints().practiceId, appointmentId, occurrenceStart: start }, new Date(Date.parse(start) - HOUR));
    expect(await fire(optedOut.appointmentId)).toBe('skipped');
    // Even if its schedule had already fired, the target re-checks the appointment.
    expect(await fire(cancelled.appointmentId)).toBe('skipped');
    expect(await fire(noMobile.appointmentId)).toBe('skipped');
    // No wait: each answer came after the target was done, so a text it had sent would be at the carrier now.
    expect(await carrierTextsTo(stopped)).toHaveLength(0);
    // Not even tried: no failed text waits in the conversation either.
    const messages = (await api(employee, 'GET', `/v1/messaging/conversations/${conversationId}/messages`)).body.messages as { direction: string }[];
    expect(messages.filter((m) => m.direction === 'outbound')).toEqual([]);
    expect(await carrierTextsTo(cancelledPhone)).toHaveLength(0);
    for (const id of [optedOut.appointmentId, noMobile.appointmentId]) await api(employee, 'DELETE', `/v1/appointments/${id}`);
  });

  it('turning reminders on schedules those already booked; another lead time moves them; turning them off removes them', async () => {
    expect((await setLead(null)).status).toBe(200);
    const start = '2027-07-12T14:00:00.000Z'; // a Monday, 9:00 AM CDT
    const single = await book(await patient(newPhone()), start);
    const weekly = await book(await patient(newPhone()), start, { recurrence: { frequency: 'Weekly', end: 'NEVER' } });
    expect(await reminderAt(single.appointmentId, start)).toBeNull();

    // The change is taken up by a job the schedule target runs a few seconds later.
    expect((await setLead(24)).status).toBe(200);
    for (const a of [single, weekly]) {
      expect(await eventuallyFound('the reminder rescheduled for the 24 h lead', () => reminderAt(a.appointmentId, start), { within: 30_000 })).toBe(
        '2027-07-11T14:00:00.000Z',
      );
    }
    expect((await setLead(2)).status).toBe(200);
    expect(
      await eventually(
        'the reminder rescheduled for the 2 h lead',
        () => reminderAt(single.appointmentId, start),
        (at) => at === '2027-07-12T12:00:00.000Z',
        { within: 30_000 },
      ),
    ).toBe('2027-07-12T12:00:00.000Z');

    expect((await setLead(null)).status).toBe(200);
    for (const a of [single, weekly])
      expect(
        await eventually(
          'the reminder schedule removed with the lead',
          () => reminderAt(a.appointmentId, start),
          (at) => at === null,
          { within: 30_000 },
        ),
      ).toBeNull();
    for (const a of [single, weekly]) await api(employee, 'DELETE', `/v1/appointments/${a.appointmentId}`);
  }, 120_000);

  it('with reminders off, booking schedules none', async () => {
    expect((await setLead(null)).body.reminderLeadHours).toBeNull();
    const a = await book(await patient(newPhone()), '2027-05-03T14:00:00.000Z');
    expect(await reminderAt(a.appointmentId, a.start)).toBeNull();
    await api(employee, 'DELETE', `/v1/appointments/${a.appointmentId}`);
  });
});
