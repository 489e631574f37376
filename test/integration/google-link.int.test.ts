import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { readFileSync } from 'node:fs';
import { api, createTestUser, practiceAuditEntries, signIn, stackEndpoints, stackOutputs, tableClient } from '../support/local-stack.js';
import { eventually } from '../support/eventually.js';

const run = Date.now().toString(36);
const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.calendarlist.readonly https://www.googleapis.com/auth/calendar.events';
const NOT_LINKED = { linked: false, linkedAt: null, calendars: [], calendarId: null, writesEvents: false, lastSyncAt: null, lastSyncError: null };
let provider: string;
let providerId: string;
let colleague: string;
let admin: string;

const linkPath = (userId: string) => `/v1/calendar-settings/users/${userId}/link/google`;

/** The person at Google's consent page (the local stand-in) choosing Allow or Cancel; returns where Google sends the browser. */
async function consent(url: string, decision: 'allow' | 'deny' = 'allow', account = `gcal-${run}@gmail.local`): Promise<URL> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Local Google stand-in');
  const asked = new URL(url);
  const form = new URLSearchParams({ account, decision });
  for (const k of ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'access_type', 'prompt']) form.set(k, asked.searchParams.get(k) ?? '');
  const answer = await fetch(`${asked.origin}/local/google/o/oauth2/v2/approve`, { method: 'POST', body: form, redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

/** The account's owner looking at their own Google Calendar, with a token of their own. */
async function ownerToken(consentUrl: string, account: string): Promise<string> {
  const client = JSON.parse(JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')).google) as {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
  };
  const asked = new URL(consentUrl);
  asked.searchParams.set('scope', 'https://www.googleapis.com/auth/calendar');
  const own = await consent(asked.toString(), 'allow', account);
  const tokens = await fetch(`${stackOutputs().webUrl}/local/google/token`, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uri: client.redirectUri,
      grant_type: 'authorization_code',
      code: own.searchParams.get('code')!,
    }),
  }).then((r) => r.json());
  return tokens.access_token;
}

/** The events of one calendar, read at the stand-in as Google's events.list answers. */
interface GoogleEvent {
  id: string;
  status: string;
  summary: string;
  recurrence: string[];
  start: { dateTime: string };
}
async function eventsOf(googleToken: string, calendarId: string, showDeleted = false): Promise<GoogleEvent[]> {
  const answer = await fetch(
    `${stackOutputs().webUrl}/local/google/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events${showDeleted ? '?showDeleted=true' : ''}`,
    {
      headers: { authorization: `Bearer ${googleToken}` },
    },
  );
  expect(answer.status).toBe(200);
  return (await answer.json()).items;
}

/** Waits for the provider-wide pass a link or a change of calendar starts (the schedule target runs it a few seconds later). */
async function syncedAfter(status: () => Promise<{ lastSyncAt: string | null }>, before: string | null): Promise<void> {
  const after = await eventually('a new Google sync pass', status, (s) => Boolean(s.lastSyncAt) && (!before || s.lastSyncAt! > before), { within: 30_000 });
  expect(after.lastSyncAt, 'the pass over booked appointments did not run').not.toBe(before);
}

/** Links `userId`'s Google account `account` through consent; answers a token of the account's owner, to read their calendars. */
async function linkAccount(token: string, userId: string, account: string): Promise<string> {
  const started = await api(token, 'GET', linkPath(userId));
  const back = await consent(started.body.url, 'allow', account);
  const linked = await api(token, 'POST', `${linkPath(userId)}/credentials`, {
    code: back.searchParams.get('code'),
    scopes: back.searchParams.get('scope'),
    state: back.searchParams.get('state'),
  });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  return ownerToken(started.body.url, account);
}

async function startLink(token: string, userId: string): Promise<URL> {
  const started = await api(token, 'GET', linkPath(userId));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return consent(started.body.url);
}

beforeAll(async () => {
  admin = await signIn('admin@demo.tidewell.local');
  provider = await createTestUser({ email: `gcal-provider-${run}@demo.test`, group: 'provider', firstName: 'Gina', lastName: `Cal${run}` });
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
  colleague = await createTestUser({ email: `gcal-colleague-${run}@demo.test`, group: 'employee', firstName: 'Colin', lastName: `League${run}` });
});

describe('the Google calendar link', () => {
  it('sends the user to Google consent for offline calendar access, back to /google-callback with a state', async () => {
    const started = await api(provider, 'GET', linkPath(providerId));
    expect(started.status).toBe(200);
    const url = new URL(started.body.url);
    expect(url.pathname).toBe('/local/google/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_type: 'code', scope: CALENDAR_SCOPE, access_type: 'offline', prompt: 'consent' });
    expect(new URL(url.searchParams.get('redirect_uri')!).pathname).toBe('/google-callback');
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(JSON.stringify(started.body)).not.toMatch(/secret/i);
  });

  it("links with Google's code and scopes, lists the user's calendars, and never returns a token", async () => {
    expect((await api(provider, 'GET', `${linkPath(providerId)}/calendars`)).body).toEqual(NOT_LINKED);
    const back = await startLink(provider, providerId);
    expect(back.pathname).toBe('/google-callback');
    const body = { code: back.searchParams.get('code'), scopes: back.searchParams.get('scope'), state: back.searchParams.get('state') };
    const linked = await api(provider, 'POST', `${linkPath(providerId)}/credentials`, body);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.linked).toBe(true);
    expect(linked.body.calendars.map((c: { summary: string; primary: boolean }) => [c.summary, c.primary])).toEqual([
      [`gcal-${run}@gmail.local`, true],
      ['Clinic on-call', false],
      ['Holidays in United States', false],
    ]);
    expect(JSON.stringify(linked.body)).not.toMatch(/ya29|1\/\/|refresh|access_token/);

    const later = await api(provider, 'GET', `${linkPath(providerId)}/calendars`);
    expect(later.body).toMatchObject({ linked: true, linkedAt: linked.body.linkedAt });
    expect(later.body.calendars).toHaveLength(3);

    // The same redirect again (a reload, or someone replaying it) links nothing.
    const replay = await api(provider, 'POST', `${linkPath(providerId)}/credentials`, body);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe('This Google sign-in was not started here, or it expired. Link Google Calendar again.');

    // A used code under a fresh state reaches Google, which refuses it (invalid_grant).
    const again = await api(provider, 'GET', linkPath(providerId));
    const reused = await api(provider, 'POST', `${linkPath(providerId)}/credentials`, { ...body, state: new URL(again.body.url).searchParams.get('state') });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe('Google refused the sign-in code (it was already used or has expired). Link Google Calendar again.');
    expect((await api(provider, 'GET', `${linkPath(providerId)}/calendars`)).body.linked).toBe(true);
  });

  it("answers 'Missing oauth code or scopes' when either is missing", async () => {
    const back = await startLink(provider, providerId);
    const state = back.searchParams.get('state');
    for (const body of [
      { scopes: CALENDAR_SCOPE, state },
      { code: back.searchParams.get('code'), state },
      { code: '', scopes: '', state },
      { code: back.searchParams.get('code'), scopes: [], state },
      {},
    ]) {
      const refused = await api(provider, 'POST', `${linkPath(providerId)}/credentials`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Missing oauth code or scopes');
    }
  });

  it('refuses a consent without calendar access, and a state started by someone else', async () => {
    const started = await api(provider, 'GET', linkPath(providerId));
    const denied = await consent(started.body.url, 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('code')).toBeNull();

    const back = await startLink(provider, providerId);
    const noCalendar = await api(provider, 'POST', `${linkPath(providerId)}/credentials`, {
      code: back.searchParams.get('code'),
      scopes: 'openid email',
      state: back.searchParams.get('state'),
    });
    expect(noCalendar.status).toBe(400);
    expect(noCalendar.body.message).toBe('Google did not grant calendar access. Link Google Calendar again and allow it.');
    // Google's consent lets the user untick a scope: reading the list without writing events is not enough.
    const readOnly = await startLink(provider, providerId);
    const listOnly = await api(provider, 'POST', `${linkPath(providerId)}/credentials`, {
      code: readOnly.searchParams.get('code'),
      scopes: 'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
      state: readOnly.searchParams.get('state'),
    });
    expect(listOnly.status).toBe(400);
    expect(listOnly.body.message).toBe('Google did not grant calendar access. Link Google Calendar again and allow it.');

    // The colleague's own state cannot carry the provider's Google code into the colleague's account.
    const colleagueId = (await api(colleague, 'GET', '/v1/practices/users/me')).body.userId;
    const theirs = await startLink(provider, providerId);
    await api(colleague, 'GET', linkPath(colleagueId));
    const crossed = await api(colleague, 'POST', `${linkPath(colleagueId)}/credentials`, {
      code: theirs.searchParams.get('code'),
      scopes: theirs.searchParams.get('scope'),
      state: theirs.searchParams.get('state'),
    });
    expect(crossed.status).toBe(400);
    expect((await api(colleague, 'GET', `${linkPath(colleagueId)}/calendars`)).body.linked).toBe(false);
  });

  it('lets a user link only their own: a colleague, an admin, another practice and no token are refused', async () => {
    const foreign = await createTestUser({ email: `gcal-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_gcal' });
    for (const token of [colleague, admin]) {
      const url = await api(token, 'GET', linkPath(providerId));
      expect(url.status).toBe(403);
      expect(url.body.message).toBe('Only the user links their own Google Calendar');
      expect((await api(token, 'GET', `${linkPath(providerId)}/calendars`)).status).toBe(403);
      expect((await api(token, 'POST', `${linkPath(providerId)}/credentials`, { code: 'x', scopes: CALENDAR_SCOPE, state: 'y' })).status).toBe(403);
    }
    expect((await api(colleague, 'DELETE', `${linkPath(providerId)}/credentials`)).status).toBe(403);
    expect((await api(foreign, 'GET', `${linkPath(providerId)}/calendars`)).status).toBe(403);
    expect((await api(foreign, 'DELETE', `${linkPath(providerId)}/credentials`)).status).toBe(403);
    expect((await api(null, 'GET', linkPath(providerId))).status).toBe(401);
  });

  it('unlinks: the token is revoked at Google, the calendars are gone, and a second unlink is a 404', async () => {
    if (!(await api(provider, 'GET', `${linkPath(providerId)}/calendars`)).body.linked) {
      const back = await startLink(provider, providerId);
      await api(provider, 'POST', `${linkPath(providerId)}/credentials`, {
        code: back.searchParams.get('code'),
        scopes: back.searchParams.get('scope'),
        state: back.searchParams.get('state'),
      });
    }
    const unlinked = await api(provider, 'DELETE', `${linkPath(providerId)}/credentials`);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual(NOT_LINKED);
    expect((await api(provider, 'GET', `${linkPath(providerId)}/calendars`)).body.linked).toBe(false);
    const twice = await api(provider, 'DELETE', `${linkPath(providerId)}/credentials`);
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe('Google Calendar is not linked');

    // An admin unlinks someone who left; the link is theirs to remove, not to read.
    const back = await startLink(provider, providerId);
    expect(
      (
        await api(provider, 'POST', `${linkPath(providerId)}/credentials`, {
          code: back.searchParams.get('code'),
          scopes: back.searchParams.get('scope'),
          state: back.searchParams.get('state'),
        })
      ).status,
    ).toBe(200);
    expect((await api(admin, 'DELETE', `${linkPath(providerId)}/credentials`)).status).toBe(200);
    expect((await api(provider, 'GET', `${linkPath(providerId)}/calendars`)).body.linked).toBe(false);
  });

  it("the local stand-in's token endpoint checks the client secret, the code and the redirect_uri as Google does", async () => {
    const client = JSON.parse(JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')).google) as {
      clientId: string;
      clientSecret: string;
      redirectUri: string;
    };
    const token = (form: Record<string, string>) =>
      fetch(`${stackOutputs().webUrl}/local/google/token`, { method: 'POST', body: new URLSearchParams(form) }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    const back = await startLink(provider, providerId);
    const code = back.searchParams.get('code')!;
    const base = { client_id: client.clientId, client_secret: client.clientSecret, redirect_uri: client.redirectUri, grant_type: 'authorization_code', code };
    expect(await token({ ...base, client_secret: 'GOCSPX-wrong' })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await token({ ...base, code: '4/0local-made-up' })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await token({ ...base, redirect_uri: 'https://elsewhere.example/cb' })).toMatchObject({ status: 400, body: { error: 'redirect_uri_mismatch' } });
    const first = await token(base);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', scope: CALENDAR_SCOPE, expires_in: 3599 });
    expect(first.body.refresh_token).toEqual(expect.any(String));
    expect(await token(base)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});

describe("appointments written into the provider's Google Calendar", () => {
  const account = `gpush-${run}@gmail.local`;
  const onCall = `on-call-${account}`;
  let pusher: string;
  let pusherId: string;
  let googleToken: string;
  let patientId: string;
  let typeId: string;
  let locationId: string;
  const typeName = `Check-in ${run}`;

  const eventsIn = (calendarId: string, showDeleted = false) => eventsOf(googleToken, calendarId, showDeleted);
  const booking = (over: Record<string, unknown> = {}) => ({
    patientId,
    appointmentTypeId: typeId,
    providerId: pusherId,
    bookingLocationId: locationId,
    visitType: 'in_person',
    durationMinutes: 30,
    notes: 'Bring the knee MRI',
    ...over,
  });
  const status = async () => (await api(pusher, 'GET', `${linkPath(pusherId)}/calendars`)).body;

  beforeAll(async () => {
    pusher = await createTestUser({ email: `gpush-provider-${run}@demo.test`, group: 'provider', firstName: 'Paula', lastName: `Push${run}` });
    pusherId = (await api(pusher, 'GET', '/v1/practices/users/me')).body.userId;
    googleToken = await linkAccount(pusher, pusherId, account);
    // The pass over appointments already booked that linking starts: none yet, but it runs first.
    await syncedAfter(status, null);

    const employee = await signIn('employee@demo.tidewell.local');
    const p = await api(employee, 'POST', '/v1/patients', { firstName: 'Greta', lastName: `Gcal${run}`, gender: 'female', dob: '1975-05-06' });
    expect(p.status).toBe(201);
    patientId = p.body.id;
    expect((await api(admin, 'PUT', '/v1/practices/settings/calendar', { timeZone: 'America/Chicago', feedShowsNames: false })).status).toBe(200);
    typeId = (await api(admin, 'POST', '/v1/appointment-types', { name: typeName, durationMinutes: 30 })).body.ident;
    locationId = (await api(admin, 'POST', '/v1/booking-locations', { name: `Lakeside ${run}`, address: '4 Shore Rd' })).body.ident;
  });

  it('links with the events scope, writes to the primary calendar until the user chooses another they can write to', async () => {
    const linked = await status();
    expect(linked).toMatchObject({ linked: true, calendarId: account, writesEvents: true, lastSyncError: null });
    const holidays = await api(pusher, 'PUT', linkPath(pusherId), { calendarId: 'en.usa#holiday@group.v.calendar.google.com' });
    expect(holidays.status).toBe(400);
    expect(holidays.body.message).toBe('Choose one of your Google calendars that you can add events to');
    expect((await api(pusher, 'PUT', linkPath(pusherId), { calendarId: 'someone-else@gmail.local' })).status).toBe(400);
    const none = await api(pusher, 'PUT', linkPath(pusherId), {});
    expect(none.status).toBe(400);
    expect(none.body.fieldErrors).toMatchObject({ calendarId: 'Choose a Google calendar' });
    expect((await api(admin, 'PUT', linkPath(pusherId), { calendarId: onCall })).status).toBe(403);
    const before = (await status()).lastSyncAt;
    const chosen = await api(pusher, 'PUT', linkPath(pusherId), { calendarId: onCall });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.calendarId).toBe(onCall);
    expect((await status()).calendarId).toBe(onCall);
    await syncedAfter(status, before);
  });

  it('books a weekly series as one recurring event, patches it on a move, EXDATEs a cancelled day, gives a changed day its own event, and deletes on cancel', async () => {
    // Wednesdays from 3 March 2027, 9:00 AM in Chicago.
    const booked = await api(
      pusher,
      'POST',
      '/v1/appointments',
      booking({ start: '2027-03-03T15:00:00.000Z', recurrence: { frequency: 'Weekly', end: 'COUNT', count: 4 } }),
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    let [event] = await eventsIn(onCall);
    expect(event).toMatchObject({
      summary: `Appointment: ${typeName}`,
      location: `Lakeside ${run}, 4 Shore Rd`,
      start: { dateTime: '2027-03-03T15:00:00.000Z', timeZone: 'America/Chicago' },
      end: { dateTime: '2027-03-03T15:30:00.000Z', timeZone: 'America/Chicago' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=4'],
    });
    expect(event.id).toMatch(/^[a-v0-9]{5,1024}$/);
    expect(JSON.stringify(event)).not.toMatch(/Greta|Gcal|MRI/);
    expect(await eventsIn(account)).toHaveLength(0);
    expect((await status()).lastSyncError).toBeNull();
    const id = booked.body.appointmentId;

    const moved = await api(
      pusher,
      'PUT',
      `/v1/appointments/${id}`,
      booking({
        start: '2027-03-03T16:00:00.000Z',
        durationMinutes: 45,
        visitType: 'virtual',
        recurrence: { frequency: 'Weekly', end: 'COUNT', count: 4 },
        updatedAt: booked.body.updatedAt,
      }),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const afterMove = await eventsIn(onCall);
    expect(afterMove).toHaveLength(1);
    expect(afterMove[0]).toMatchObject({
      id: event.id,
      location: 'Virtual visit',
      start: { dateTime: '2027-03-03T16:00:00.000Z' },
      end: { dateTime: '2027-03-03T16:45:00.000Z' },
    });

    expect((await api(pusher, 'DELETE', `/v1/appointments/${id}?occurrence=2027-03-10`)).status).toBe(200);
    [event] = await eventsIn(onCall);
    expect(event.recurrence).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=4', 'EXDATE;TZID=America/Chicago:20270310T100000']);

    // The 17th moves to Thursday: out of the series, and an event of its own.
    const series = (await api(pusher, 'GET', `/v1/appointments/${id}`)).body;
    const detached = await api(
      pusher,
      'PUT',
      `/v1/appointments/${id}?occurrence=2027-03-17`,
      booking({ start: '2027-03-18T20:00:00.000Z', visitType: 'virtual', updatedAt: series.updatedAt }),
    );
    expect(detached.status, JSON.stringify(detached.body)).toBe(200);
    const two = await eventsIn(onCall);
    expect(two).toHaveLength(2);
    expect(two.find((e) => e.id === event.id)!.recurrence).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=4',
      'EXDATE;TZID=America/Chicago:20270310T100000,20270317T100000',
    ]);
    const single = two.find((e) => e.id !== event.id)!;
    expect(single).toMatchObject({ start: { dateTime: '2027-03-18T20:00:00.000Z' }, recurrence: [], summary: `Appointment: ${typeName}` });

    expect((await api(pusher, 'DELETE', `/v1/appointments/${id}`)).status).toBe(200);
    const left = await eventsIn(onCall);
    expect(left.map((e) => e.id)).toEqual([single.id]);
    expect((await eventsIn(onCall, true)).find((e) => e.id === event.id)?.status).toBe('cancelled');
    expect((await api(pusher, 'DELETE', `/v1/appointments/${detached.body.appointmentId}`)).status).toBe(200);
    expect(await eventsIn(onCall)).toHaveLength(0);
    expect((await status()).lastSyncError).toBeNull();
  });

  it('names the patient only when the practice lets Google Calendar events show names, not when only feeds do', async () => {
    expect((await api(admin, 'PUT', '/v1/practices/settings/calendar', { timeZone: 'America/Chicago', feedShowsNames: true })).status).toBe(200);
    try {
      const feedsOnly = await api(pusher, 'POST', '/v1/appointments', booking({ start: '2027-04-06T15:00:00.000Z' }));
      expect(feedsOnly.status).toBe(201);
      const [unnamed] = await eventsIn(onCall);
      expect(unnamed.summary).toBe(`Appointment: ${typeName}`);
      expect((await api(pusher, 'DELETE', `/v1/appointments/${feedsOnly.body.appointmentId}`)).status).toBe(200);

      const turnedOn = await api(admin, 'PUT', '/v1/practices/settings/calendar', { timeZone: 'America/Chicago', googleShowsNames: true });
      expect(turnedOn.body).toMatchObject({ feedShowsNames: true, googleShowsNames: true });
      const allowed = await practiceAuditEntries({
        FilterExpression: 'entity = :e AND entityId = :g',
        ExpressionAttributeValues: { ':e': 'PATIENT_NAMES_SHARED', ':g': 'GOOGLE_CALENDAR' },
      });
      expect(allowed.some((e) => e.actorEmail === 'admin@demo.tidewell.local' && e.action === 'update')).toBe(true);
      const booked = await api(pusher, 'POST', '/v1/appointments', booking({ start: '2027-04-07T15:00:00.000Z' }));
      expect(booked.status).toBe(201);
      const [event] = await eventsIn(onCall);
      expect(event.summary).toBe(`Appointment: ${typeName} with Greta Gcal${run}`);
      expect(JSON.stringify(event)).not.toMatch(/MRI/);
      expect((await api(pusher, 'DELETE', `/v1/appointments/${booked.body.appointmentId}`)).status).toBe(200);
    } finally {
      await api(admin, 'PUT', '/v1/practices/settings/calendar', { timeZone: 'America/Chicago', feedShowsNames: false, googleShowsNames: false });
    }
  });

  it("the local stand-in's events endpoint refuses what Google refuses", async () => {
    const insert = (body: unknown, token = googleToken, calendarId = account) =>
      fetch(`${stackOutputs().webUrl}/local/google/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const start = { dateTime: '2027-08-04T15:00:00Z', timeZone: 'America/Chicago' };
    const end = { dateTime: '2027-08-04T15:30:00Z', timeZone: 'America/Chicago' };
    expect(await insert({ start, end }, 'ya29.made-up')).toMatchObject({ status: 401 });
    expect(await insert({ start, end }, googleToken, 'nobody@gmail.local')).toMatchObject({
      status: 404,
      body: { error: { errors: [{ reason: 'notFound' }] } },
    });
    expect(await insert({ start, end }, googleToken, 'en.usa#holiday@group.v.calendar.google.com')).toMatchObject({
      status: 403,
      body: { error: { errors: [{ reason: 'requiredAccessLevel' }] } },
    });
    expect(await insert({ start })).toMatchObject({ status: 400, body: { error: { message: 'Missing end time.' } } });
    expect(await insert({ start: end, end: start })).toMatchObject({ status: 400, body: { error: { message: 'The specified time range is empty.' } } });
    expect(await insert({ id: 'Not_Base32', start, end })).toMatchObject({ status: 400, body: { error: { message: 'Invalid resource id value.' } } });
    for (const recurrence of [['RRULE:FREQ=FORTNIGHTLY'], ['RRULE:FREQ=WEEKLY;COUNT=2;UNTIL=20270901T000000Z'], ['EXDATE:tomorrow'], ['weekly']]) {
      expect(await insert({ start, end, recurrence })).toMatchObject({ status: 400, body: { error: { message: 'Invalid recurrence rule.' } } });
    }
    expect(await insert({ start: { dateTime: '2027-08-04T15:00:00Z' }, end, recurrence: ['RRULE:FREQ=DAILY'] })).toMatchObject({
      status: 400,
      body: { error: { message: 'Missing time zone definition for start time.' } },
    });
    const id = `t${run}`.replace(/[^a-v0-9]/g, '0');
    expect(await insert({ id, start, end, recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=2'] })).toMatchObject({
      status: 200,
      body: { id, status: 'confirmed' },
    });
    expect(await insert({ id, start, end })).toMatchObject({ status: 409, body: { error: { errors: [{ reason: 'duplicate' }] } } });
    const remove = () =>
      fetch(`${stackOutputs().webUrl}/local/google/calendar/v3/calendars/primary/events/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${googleToken}` },
      });
    expect((await remove()).status).toBe(204);
    expect((await remove()).status).toBe(410);
  });

  it('writes one event even when Google took an insert whose outcome Tidewell never recorded', async () => {
    const booked = await api(pusher, 'POST', '/v1/appointments', booking({ start: '2027-04-14T15:00:00.000Z' }));
    expect(booked.status).toBe(201);
    const [first] = await eventsIn(onCall);
    // As if the write of the mapping had been lost after Google answered: the next change inserts again.
    const { client, tableName } = tableClient();
    await client.send(
      new DeleteCommand({ TableName: tableName, Key: { practiceId: stackEndpoints().practiceId, sk: `GOOGLE_EVENT#${booked.body.appointmentId}` } }),
    );
    const moved = await api(
      pusher,
      'PUT',
      `/v1/appointments/${booked.body.appointmentId}`,
      booking({ start: '2027-04-14T17:00:00.000Z', updatedAt: booked.body.updatedAt }),
    );
    expect(moved.status).toBe(200);
    const after = await eventsIn(onCall);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first.id, start: { dateTime: '2027-04-14T17:00:00.000Z' } });
    expect((await status()).lastSyncError).toBeNull();
    expect((await api(pusher, 'DELETE', `/v1/appointments/${booked.body.appointmentId}`)).status).toBe(200);
    expect(await eventsIn(onCall)).toHaveLength(0);
  });

  it("keeps the booking when Google fails, and the link's state says why", async () => {
    // The chosen calendar is deleted in Google.
    const removed = await fetch(`${stackOutputs().webUrl}/local/google/calendar/v3/calendars/${encodeURIComponent(onCall)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${googleToken}` },
    });
    expect(removed.status).toBe(204);
    const booked = await api(pusher, 'POST', '/v1/appointments', booking({ start: '2027-05-05T15:00:00.000Z' }));
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect((await api(pusher, 'GET', `/v1/appointments/${booked.body.appointmentId}`)).status).toBe(200);
    const failed = await status();
    expect(failed.lastSyncError).toBe('The chosen Google calendar was not found. Choose another calendar.');
    expect(failed.lastSyncAt).toEqual(expect.any(String));

    // Choosing a calendar that exists, the next change lands there and the state clears.
    expect((await api(pusher, 'PUT', linkPath(pusherId), { calendarId: account })).status).toBe(200);
    const moved = await api(
      pusher,
      'PUT',
      `/v1/appointments/${booked.body.appointmentId}`,
      booking({ start: '2027-05-05T16:00:00.000Z', updatedAt: booked.body.updatedAt }),
    );
    expect(moved.status).toBe(200);
    expect((await eventsIn(account)).map((e) => e.start.dateTime)).toEqual(['2027-05-05T16:00:00.000Z']);
    expect((await status()).lastSyncError).toBeNull();
  });
});

describe('appointments booked before linking, and unlinking', () => {
  const account = `gback-${run}@gmail.local`;
  const onCall = `on-call-${account}`;
  let backer: string;
  let backerId: string;
  let googleToken: string;
  let booking: (start: string, over?: Record<string, unknown>) => Record<string, unknown>;
  const status = async () => (await api(backer, 'GET', `${linkPath(backerId)}/calendars`)).body;
  const parked = async () => {
    const { client, tableName } = tableClient();
    const found = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :k)',
        ExpressionAttributeValues: { ':p': stackEndpoints().practiceId, ':k': `GOOGLE_UNLINKED#${backerId}#` },
      }),
    );
    return found.Items ?? [];
  };

  beforeAll(async () => {
    backer = await createTestUser({ email: `gback-provider-${run}@demo.test`, group: 'provider', firstName: 'Bea', lastName: `Backfill${run}` });
    backerId = (await api(backer, 'GET', '/v1/practices/users/me')).body.userId;
    const employee = await signIn('employee@demo.tidewell.local');
    const patient = await api(employee, 'POST', '/v1/patients', { firstName: 'Hal', lastName: `Gback${run}`, gender: 'male', dob: '1961-02-03' });
    const typeId = (await api(admin, 'POST', '/v1/appointment-types', { name: `Backfill visit ${run}`, durationMinutes: 30 })).body.ident;
    booking = (start, over = {}) => ({
      patientId: patient.body.id,
      appointmentTypeId: typeId,
      providerId: backerId,
      visitType: 'virtual',
      durationMinutes: 30,
      start,
      ...over,
    });
  });

  it('writes the appointments still ahead when the provider links, moves them to a newly chosen calendar, and takes them all out on unlink', async () => {
    const ahead = await api(backer, 'POST', '/v1/appointments', booking('2027-06-02T15:00:00.000Z'));
    expect(ahead.status, JSON.stringify(ahead.body)).toBe(201);
    const weekly = await api(
      backer,
      'POST',
      '/v1/appointments',
      booking('2027-06-07T16:00:00.000Z', { recurrence: { frequency: 'Weekly', end: 'COUNT', count: 3 } }),
    );
    expect(weekly.status, JSON.stringify(weekly.body)).toBe(201);
    const past = await api(backer, 'POST', '/v1/appointments', booking('2026-01-07T15:00:00.000Z'));
    expect(past.status, JSON.stringify(past.body)).toBe(201);

    googleToken = await linkAccount(backer, backerId, account);

    // A few seconds later the schedule target has written both, not the visit already past.
    const written = await eventually(
      'both appointments in the Google calendar',
      () => eventsOf(googleToken, account),
      (events) => events.length >= 2,
      { within: 30_000 },
    );
    expect(written.map((e) => e.start.dateTime).sort()).toEqual(['2027-06-02T15:00:00.000Z', '2027-06-07T16:00:00.000Z']);
    expect(written.find((e) => e.start.dateTime === '2027-06-07T16:00:00.000Z')!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3']);
    expect((await status()).lastSyncError).toBeNull();

    // Choosing another calendar moves what is already there.
    expect((await api(backer, 'PUT', linkPath(backerId), { calendarId: onCall })).status).toBe(200);
    const moved = await eventually(
      'both appointments moved to the chosen calendar',
      () => eventsOf(googleToken, onCall),
      (events) => events.length >= 2,
      { within: 30_000 },
    );
    expect(moved).toHaveLength(2);
    expect(await eventsOf(googleToken, account)).toEqual([]);

    // Unlinking answers at once; the events go a few seconds later, then the kept token is revoked and forgotten.
    const unlinked = await api(backer, 'DELETE', `${linkPath(backerId)}/credentials`);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual(NOT_LINKED);
    expect(
      await eventually(
        'the Google events gone after unlinking',
        () => eventsOf(googleToken, onCall),
        (events) => events.length === 0,
        { within: 30_000 },
      ),
    ).toEqual([]);
    expect(await eventually('the kept Google token forgotten', parked, (items) => items.length === 0, { within: 30_000 })).toEqual([]);
    const { client, tableName } = tableClient();
    const mapping = await client.send(
      new GetCommand({ TableName: tableName, Key: { practiceId: stackEndpoints().practiceId, sk: `GOOGLE_EVENT#${ahead.body.appointmentId}` } }),
    );
    expect(mapping.Item).toBeUndefined();

    // Booking after unlinking writes nothing to Google.
    const later = await api(backer, 'POST', '/v1/appointments', booking('2027-06-09T15:00:00.000Z'));
    expect(later.status).toBe(201);
    expect(await eventsOf(googleToken, onCall)).toEqual([]);
    expect(await eventsOf(googleToken, account)).toEqual([]);
  });
});

describe('unlinking while the appointments are still being written', () => {
  const account = `grace-${run}@gmail.local`;
  const SERIES = 60;
  let racer: string;
  let racerId: string;

  beforeAll(async () => {
    racer = await createTestUser({ email: `grace-provider-${run}@demo.test`, group: 'provider', firstName: 'Rae', lastName: `Racer${run}` });
    racerId = (await api(racer, 'GET', '/v1/practices/users/me')).body.userId;
    const employee = await signIn('employee@demo.tidewell.local');
    const patient = await api(employee, 'POST', '/v1/patients', { firstName: 'Ray', lastName: `Grace${run}`, gender: 'male', dob: '1970-04-05' });
    const typeId = (await api(admin, 'POST', '/v1/appointment-types', { name: `Race visit ${run}`, durationMinutes: 30 })).body.ident;
    // One a day from mid-2027: enough that the pass after linking is still writing when the provider unlinks.
    for (let day = 0; day < SERIES; day++) {
      const start = new Date(Date.UTC(2027, 6, 1 + day, 15)).toISOString();
      const booked = await api(racer, 'POST', '/v1/appointments', {
        patientId: patient.body.id,
        appointmentTypeId: typeId,
        providerId: racerId,
        visitType: 'virtual',
        durationMinutes: 30,
        start,
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    }
  });

  it('leaves nothing in Google: what the pass writes after the unlink it takes out itself', async () => {
    const googleToken = await linkAccount(racer, racerId, account);

    // The pass has begun: the first events are in Google, far from all of them.
    const first = await eventually(
      'the first events in Google',
      () => eventsOf(googleToken, account),
      (events) => events.length > 0,
      {
        within: 30_000,
        every: 20,
      },
    );
    expect(first.length, 'the pass wrote every appointment before the unlink could reach it').toBeLessThan(SERIES);
    expect((await api(racer, 'DELETE', `${linkPath(racerId)}/credentials`)).status).toBe(200);

    // The cleanup has run once the kept token is forgotten; the pass stopped at its first write after the unlink.
    const { client, tableName } = tableClient();
    const ofRacer = async (prefix: string) =>
      (
        await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :k)',
            ExpressionAttributeValues: { ':p': stackEndpoints().practiceId, ':k': prefix },
          }),
        )
      ).Items ?? [];
    await eventually(
      'the kept Google token forgotten',
      () => ofRacer(`GOOGLE_UNLINKED#${racerId}#`),
      (items) => items.length === 0,
      { within: 30_000 },
    );
    expect(
      await eventually(
        'no event left in Google',
        () => eventsOf(googleToken, account),
        (events) => events.length === 0,
        { within: 30_000 },
      ),
    ).toEqual([]);
    const mappings = (await ofRacer('GOOGLE_EVENT#')).filter((item) => item.userId === racerId);
    expect(mappings).toEqual([]);
  }, 120_000);
});
