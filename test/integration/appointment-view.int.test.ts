import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { api, createTestUser, signIn, stackOutputs } from '../support/local-stack.js';

/** The appointment's view: arrival status, "Send reminder" now, and the chart header's next visits. */
const PRACTICE_PHONE = '+15415550100';
const ZONE = 'America/Chicago';
const run = Date.now().toString(36);
let admin: string;
let provider: string;
let employee: string;
let typeId: string;
let locationId: string;
let seq = 0;

const newPhone = () => `+1973${String(Date.now() % 1000).padStart(3, '0')}${String((seq++ * 53 + Math.floor(Math.random() * 1000)) % 10_000).padStart(4, '0')}`;
const local = (path: string, init?: RequestInit) => fetch(`${stackOutputs().webUrl}${path}`, init);
const dayOf = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
async function carrierTextsTo(phone: string): Promise<{ to: string; text: string }[]> {
  const body = (await (await local('/local/carrier/sms')).json()) as { messages: { to: string; text: string }[] };
  return body.messages.filter((m) => m.to === phone);
}

async function patient(phone: string | null): Promise<string> {
  const body = {
    firstName: 'Vera',
    lastName: `Visit${run}`,
    gender: 'female',
    dob: '1981-02-03',
    ...(phone ? { phones: [{ type: 'mobile', number: phone }], primaryPhoneNumber: phone } : {}),
  };
  const p = await api(employee, 'POST', '/v1/patients', body);
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  return p.body.id as string;
}
/** Each booking has its own provider, so no two bookings of this file double-book one. */
async function book(patientId: string, start: string, over: Record<string, unknown> = {}) {
  const doc = await createTestUser({ email: `view-${run}-${seq++}@demo.test`, group: 'provider', firstName: 'Vic', lastName: `Doc${run}` });
  const providerId = (await api(doc, 'GET', '/v1/practices/users/me')).body.userId as string;
  const res = await api(employee, 'POST', '/v1/appointments', {
    patientId,
    appointmentTypeId: typeId,
    providerId,
    bookingLocationId: locationId,
    visitType: 'in_person',
    durationMinutes: 30,
    start,
    ...over,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { appointmentId: string; start: string; providerId: string; updatedAt: string };
}
const history = async (patientId: string) =>
  (await api(admin, 'GET', `/v1/patients/${patientId}/access-history?limit=500`)).body.entries as {
    entity: string;
    action: string;
    entityId?: string;
    detail?: string;
    actor: { email: string };
  }[];

beforeAll(async () => {
  [admin, provider, employee] = await Promise.all([
    signIn('admin@demo.tidewell.local'),
    signIn('provider@demo.tidewell.local'),
    signIn('employee@demo.tidewell.local'),
  ]);
  typeId = (await api(admin, 'POST', '/v1/appointment-types', { name: `Check-in visit ${run}`, durationMinutes: 30 })).body.ident;
  locationId = (await api(admin, 'POST', '/v1/booking-locations', { name: `Harbor clinic ${run}`, address: '12 Dock Rd' })).body.ident;
});

describe('arrival status', () => {
  it('every role sets it on one occurrence; the calendar shows it; an unknown status or day is refused in words', async () => {
    const patientId = await patient(null);
    // A weekly series: the arrival belongs to one occurrence, not the series.
    const a = await book(patientId, '2027-09-06T14:00:00.000Z', { recurrence: { frequency: 'Weekly', end: 'COUNT', count: 3 } });
    const first = dayOf(a.start);
    const path = `/v1/appointments/${a.appointmentId}/arrival`;

    const arrived = await api(employee, 'PUT', path, { occurrenceDay: first, status: 'arrived' });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(200);
    expect(arrived.body).toMatchObject({ appointmentId: a.appointmentId, occurrenceDay: first, arrivalStatus: 'arrived' });
    expect(arrived.body.updatedAt > a.updatedAt).toBe(true);
    expect((await api(provider, 'PUT', path, { occurrenceDay: first, status: 'in_room' })).status).toBe(200);

    const range = await api(provider, 'GET', `/v1/appointments?start=2027-09-06T05:00:00.000Z&end=2027-09-27T05:00:00.000Z&providerId=${a.providerId}`);
    const statuses = (range.body.occurrences as { occurrenceDay: string; arrivalStatus: string }[]).map((o) => [o.occurrenceDay, o.arrivalStatus]);
    expect(statuses).toEqual([
      [first, 'in_room'],
      ['2027-09-13', 'scheduled'],
      ['2027-09-20', 'scheduled'],
    ]);

    const bad = await api(employee, 'PUT', path, { occurrenceDay: first, status: 'waiting' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.status).toBe('Choose one of: scheduled, arrived, in_room, seen, no_show');
    expect((await api(employee, 'PUT', path, { occurrenceDay: '2027-09-07', status: 'seen' })).status).toBe(404);
    expect((await api(employee, 'PUT', path, { occurrenceDay: 'soon', status: 'seen' })).status).toBe(400);
    expect((await api(employee, 'PUT', `/v1/appointments/nope-${run}/arrival`, { occurrenceDay: first, status: 'seen' })).status).toBe(404);
    // The refusals changed nothing.
    const again = await api(provider, 'GET', `/v1/appointments/${a.appointmentId}`);
    expect(again.body.arrivals).toEqual({ [first]: 'in_room' });

    // Back to Scheduled leaves no entry; a change of the series (an edit form) keeps the arrivals it read.
    expect((await api(admin, 'PUT', path, { occurrenceDay: first, status: 'scheduled' })).body.arrivalStatus).toBe('scheduled');
    const seen = await api(admin, 'PUT', path, { occurrenceDay: '2027-09-13', status: 'no_show' });
    const series = (await api(provider, 'GET', `/v1/appointments/${a.appointmentId}`)).body;
    expect(series.arrivals).toEqual({ '2027-09-13': 'no_show' });
    const edit = {
      patientId,
      appointmentTypeId: typeId,
      providerId: a.providerId,
      bookingLocationId: locationId,
      visitType: 'in_person',
      durationMinutes: 45,
      start: a.start,
      recurrence: { frequency: 'Weekly', end: 'COUNT', count: 3 },
    };
    // An edit opened before the arrival changed is refused rather than writing over it.
    expect((await api(employee, 'PUT', `/v1/appointments/${a.appointmentId}`, { ...edit, updatedAt: a.updatedAt })).status).toBe(409);
    const saved = await api(employee, 'PUT', `/v1/appointments/${a.appointmentId}`, { ...edit, updatedAt: seen.body.updatedAt });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.arrivals).toEqual({ '2027-09-13': 'no_show' });

    const entries = await history(patientId);
    // Four changes, four entries in the patient's access history (the refusals wrote none).
    expect(entries.filter((e) => e.entity === 'APPOINTMENT_ARRIVAL' && e.action === 'update' && e.entityId === a.appointmentId)).toHaveLength(4);
    expect(entries.some((e) => e.entity === 'APPOINTMENT_ARRIVAL' && e.actor.email === 'employee@demo.tidewell.local')).toBe(true);
  });

  it('refuses no_access users and requests without a token', async () => {
    const patientId = await patient(null);
    const a = await book(patientId, '2027-09-08T14:00:00.000Z');
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    expect((await api(noAccess, 'PUT', `/v1/appointments/${a.appointmentId}/arrival`, { occurrenceDay: dayOf(a.start), status: 'arrived' })).status).toBe(403);
    expect((await api(noAccess, 'POST', `/v1/appointments/${a.appointmentId}/reminder`, { occurrenceDay: dayOf(a.start) })).status).toBe(403);
    expect((await api(noAccess, 'GET', `/v1/appointments/upcoming?patientId=${patientId}`)).status).toBe(403);
    expect((await api(null, 'PUT', `/v1/appointments/${a.appointmentId}/arrival`, { occurrenceDay: dayOf(a.start), status: 'arrived' })).status).toBe(401);
    expect((await api(provider, 'GET', `/v1/appointments/${a.appointmentId}`)).body.arrivals).toEqual({});
  });
});

describe('send reminder now', () => {
  it("texts the occurrence's reminder now from the practice's number, whatever the lead-time setting, and says what was sent", async () => {
    const phone = newPhone();
    const patientId = await patient(phone);
    const a = await book(patientId, '2027-10-04T14:00:00.000Z');
    const sent = await api(employee, 'POST', `/v1/appointments/${a.appointmentId}/reminder`, { occurrenceDay: dayOf(a.start) });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ appointmentId: a.appointmentId, occurrenceDay: '2027-10-04', toLastFour: phone.slice(-4) });
    expect(sent.body.text).toMatch(
      /^Reminder: you have an appointment with .+ on Mon 10\/04\/2027 at 9:00 AM CDT, at Harbor clinic .+, 12 Dock Rd\. Reply STOP to opt out of texts\.$/,
    );
    const texts = await eventually(
      'the reminder text at the carrier',
      () => carrierTextsTo(phone),
      (t) => t.length > 0,
    );
    expect(texts).toHaveLength(1);
    expect(texts[0].text).toBe(sent.body.text);
    // A second press sends a second text (the patient asked again, say).
    expect((await api(provider, 'POST', `/v1/appointments/${a.appointmentId}/reminder`, { occurrenceDay: '2027-10-04' })).status).toBe(200);
    expect(
      await eventually(
        'the second reminder text at the carrier',
        () => carrierTextsTo(phone),
        (t) => t.length > 1,
      ),
    ).toHaveLength(2);
    const entries = await history(patientId);
    expect(entries.filter((e) => e.entity === 'APPOINTMENT_REMINDER' && e.action === 'create')).toHaveLength(2);
  });

  it('refuses in plain words when the patient has no mobile number or texted STOP, and for a day the appointment does not have', async () => {
    const none = await patient(null);
    const a = await book(none, '2027-10-05T14:00:00.000Z');
    const noMobile = await api(employee, 'POST', `/v1/appointments/${a.appointmentId}/reminder`, { occurrenceDay: '2027-10-05' });
    expect(noMobile.status).toBe(422);
    expect(noMobile.body.message).toBe('This patient has no mobile number, so no reminder was sent. Add one to their profile first.');

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
    const conversation = await eventually(
      'the conversation to show the STOP opt-out',
      () => api(employee, 'GET', `/v1/messaging/conversations/${conversationId}`),
      (r) => r.body.optOut?.optedOut === true,
    );
    expect(conversation.body.optOut?.optedOut).toBe(true);
    const b = await book(stoppedId, '2027-10-05T14:00:00.000Z');
    const optedOut = await api(employee, 'POST', `/v1/appointments/${b.appointmentId}/reminder`, { occurrenceDay: '2027-10-05' });
    expect(optedOut.status).toBe(422);
    expect(optedOut.body.message).toBe("This patient replied STOP to the practice's texts, so no reminder was sent.");
    expect(await carrierTextsTo(stopped)).toHaveLength(0);
    expect((await history(stoppedId)).some((e) => e.entity === 'APPOINTMENT_REMINDER' && e.action === 'refused' && e.entityId === b.appointmentId)).toBe(true);

    expect((await api(employee, 'POST', `/v1/appointments/${b.appointmentId}/reminder`, { occurrenceDay: '2027-10-06' })).status).toBe(404);
    const badDay = await api(employee, 'POST', `/v1/appointments/${b.appointmentId}/reminder`, {});
    expect(badDay.status).toBe(400);
    expect(badDay.body.fieldErrors).toHaveProperty('occurrenceDay');

    // A visit already begun gets no reminder.
    const pastPhone = newPhone();
    const past = await book(await patient(pastPhone), '2025-01-06T15:00:00.000Z');
    const late = await api(employee, 'POST', `/v1/appointments/${past.appointmentId}/reminder`, { occurrenceDay: '2025-01-06' });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This visit has already started, so no reminder was sent.');
    expect(await carrierTextsTo(pastPhone)).toHaveLength(0);
  });
});

describe("the chart header's next visits", () => {
  it("lists the patient's next two visits still ahead, soonest first, with the provider", async () => {
    const patientId = await patient(null);
    const now = Date.now();
    const iso = (days: number) => new Date(Math.floor((now + days * 86_400_000) / 3_600_000) * 3_600_000).toISOString();
    await book(patientId, iso(-3));
    const later = await book(patientId, iso(20));
    const sooner = await book(patientId, iso(6), { recurrence: { frequency: 'Weekly', end: 'COUNT', count: 5 } });
    const res = await api(provider, 'GET', `/v1/appointments/upcoming?patientId=${patientId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const visits = res.body.visits as { appointmentId: string; start: string; providerName: string; arrivalStatus: string }[];
    // The weekly series' first two come before the single visit in 20 days; the past one is not listed.
    expect(visits.map((v) => v.appointmentId)).toEqual([sooner.appointmentId, sooner.appointmentId]);
    expect(visits[0].start).toBe(iso(6));
    expect(visits[0].providerName).toBe(`Vic Doc${run}`);
    expect(visits.some((v) => v.appointmentId === later.appointmentId)).toBe(false);
    expect((await api(provider, 'GET', '/v1/appointments/upcoming')).status).toBe(400);
    expect((await api(provider, 'GET', `/v1/appointments/upcoming?patientId=nobody-${run}`)).body.visits).toEqual([]);
    expect((await history(patientId)).some((e) => e.entity === 'APPOINTMENT' && e.action === 'list')).toBe(true);
  });
});
