/**
 * Google Calendar API v3 and Google's OAuth 2.0, with Google's own Node client
 * (`@googleapis/calendar`, a devDependency, and the google-auth-library OAuth2 client it carries)
 * as the oracle. The client's HTTP layer (gaxios) is intercepted and sent to the local stand-in,
 * so both sides of each call are recorded and nothing leaves the machine: the adapter must send the
 * method, path, query, body and Bearer/client credentials the client sends, and the client must read
 * every answer of the stand-in. The v3 discovery document, as generated into the client
 * (v3.ts: its schemas and each method's scopes), checks the fields we write and the scopes we ask.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { auth, calendar } from '@googleapis/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGoogle, ensureLocalGoogle, LOCAL_GOOGLE_PREFIX, LOCAL_GOOGLE_SCOPES } from '../../infra/local/google/local-google.js';
import { NO_RECURRENCE } from '../../shared/calendar/recurrence.js';
import { googleEventBody } from '../core/calendar/google-push.js';
import {
  CALENDAR_LIST_SCOPES,
  canListCalendars,
  canWriteEvents,
  EVENT_WRITE_SCOPES,
  GOOGLE_CALENDAR_LIST_SCOPE,
  GOOGLE_CALENDAR_SCOPES,
  GOOGLE_EVENTS_SCOPE,
  GoogleCalendarClient,
  GoogleError,
  parseGoogleConfig,
  type GoogleConfig,
} from '../lib/adapters/google-calendar.js';

interface Seen {
  method: string;
  path: string;
  query: [string, string][];
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

/** The generated client, whose schemas and scopes are the discovery document's. */
const generated = readFileSync(join(dirname(createRequire(import.meta.url).resolve('@googleapis/calendar/package.json')), 'v3.ts'), 'utf8');
function schemaFields(name: string): Set<string> {
  const start = generated.indexOf(`export interface Schema$${name} {`);
  if (start < 0) throw new Error(`No schema ${name}`);
  const block = generated.slice(start, generated.indexOf('\n  }', start));
  return new Set([...block.matchAll(/^ {4}(\w+)\?:/gm)].map((m) => m[1]!));
}
function methodScopes(call: string): string[] {
  const at = generated.indexOf(`const res = await calendar.${call}(`);
  const from = generated.lastIndexOf('scopes: [', at);
  return [...generated.slice(from, generated.indexOf(']', from)).matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}
/** Every field of `value` is one the schema names, recursively through the schemas given for nested fields. */
function unknownFields(value: Record<string, unknown>, schema: string, nested: Record<string, string> = {}): string[] {
  const known = schemaFields(schema);
  return Object.entries(value).flatMap(([k, v]) => {
    if (!known.has(k)) return [`${schema}.${k}`];
    const inner = nested[`${schema}.${k}`];
    return inner && v && typeof v === 'object' ? unknownFields(v as Record<string, unknown>, inner, nested) : [];
  });
}
const EVENT_NESTED = { 'Event.start': 'EventDateTime', 'Event.end': 'EventDateTime' };

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

let server: Server;
let origin: string;
let config: GoogleConfig;
const ours: Seen[] = [];
const theirs: Seen[] = [];

function seen(method: string, target: string, headers: Headers, body: string): Seen {
  const url = new URL(target);
  const path = url.pathname.startsWith(LOCAL_GOOGLE_PREFIX) ? url.pathname.slice(LOCAL_GOOGLE_PREFIX.length) : url.pathname;
  return {
    method,
    path,
    query: [...url.searchParams.entries()].sort(),
    authorization: headers.get('authorization') ?? undefined,
    contentType: headers.get('content-type')?.split(';')[0],
    body,
  };
}

/** Google's hosts, as the client addresses them, mapped onto the stand-in's paths. */
function onStandIn(target: string): string {
  const url = new URL(target);
  if (url.origin === 'https://www.googleapis.com' || url.origin === 'https://oauth2.googleapis.com')
    return `${origin}${LOCAL_GOOGLE_PREFIX}${url.pathname}${url.search}`;
  throw new Error(`The client called ${url.origin}`);
}

function libraryClient() {
  const oauth = new auth.OAuth2({ clientId: config.clientId, clientSecret: config.clientSecret, redirectUri: config.redirectUri });
  oauth.transporter.defaults.adapter = async (opts) => {
    const headers = new Headers(opts.headers as HeadersInit);
    // A URLSearchParams body goes out form-encoded, the content type set by fetch itself.
    if (opts.body instanceof URLSearchParams && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
    const body = opts.body === undefined || opts.body === null ? '' : String(opts.body);
    theirs.push(seen(String(opts.method ?? 'GET'), String(opts.url), headers, body));
    const answer = await fetch(onStandIn(String(opts.url)), { method: String(opts.method ?? 'GET'), headers, body: body || undefined });
    const text = await answer.text();
    return { data: text ? JSON.parse(text) : '', status: answer.status, statusText: answer.statusText, headers: answer.headers, config: opts } as never;
  };
  return { oauth, cal: calendar({ version: 'v3', auth: oauth }) };
}

const client = new Proxy({} as GoogleCalendarClient, {
  get: (_t, prop) => {
    const real = new GoogleCalendarClient(config, async (target, init) => {
      ours.push(seen(init.method, target, new Headers(init.headers), init.body));
      const bodiless = init.method === 'GET' || init.method === 'DELETE';
      const answer = await fetch(target, bodiless ? { method: init.method, headers: init.headers } : init);
      return { status: answer.status, body: await answer.text() };
    });
    const v = real[prop as keyof GoogleCalendarClient];
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(real) : v;
  },
});

/** A code from the stand-in's consent, as Google's redirect would carry it. */
async function consentCode(): Promise<string> {
  const form = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    response_type: 'code',
    scope: GOOGLE_CALENDAR_SCOPES.join(' '),
    state: 's',
    decision: 'allow',
    account: 'contract@gmail.local',
  });
  const res = await fetch(`${origin}${LOCAL_GOOGLE_PREFIX}/o/oauth2/v2/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

const same = (a: Seen, b: Seen) => {
  expect(a.method).toBe(b.method);
  expect(a.path).toBe(b.path);
  expect(a.query).toEqual(b.query);
  expect(a.authorization).toBe(b.authorization);
};
const formOf = (s: Seen) => [...new URLSearchParams(s.body).entries()].sort();

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'google-contract-'));
  const secretsFile = join(dir, 'secrets.json');
  writeFileSync(secretsFile, '{}');
  const box: { local?: ReturnType<typeof createLocalGoogle> } = {};
  server = createServer((req, res) => void box.local!.handle(req, res));
  origin = await listen(server);
  ensureLocalGoogle(secretsFile, origin, origin);
  box.local = createLocalGoogle({ dataDir: dir, secretsFile });
  config = parseGoogleConfig((JSON.parse(readFileSync(secretsFile, 'utf8')) as { google: string }).google)!;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('OAuth against google-auth-library', () => {
  it('asks consent with the parameters the library puts on the consent URL', () => {
    const { oauth } = libraryClient();
    const mine = new URL(client.consentUrl('state-1'));
    const lib = new URL(
      oauth.generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: [...GOOGLE_CALENDAR_SCOPES], state: 'state-1', include_granted_scopes: true }),
    );
    expect(mine.pathname.slice(LOCAL_GOOGLE_PREFIX.length)).toBe(lib.pathname);
    expect([...mine.searchParams.entries()].sort()).toEqual([...lib.searchParams.entries()].sort());
  });

  it('exchanges a code and refreshes a token with the form the library posts, and the library reads the stand-in’s tokens', async () => {
    const { oauth } = libraryClient();
    ours.length = theirs.length = 0;
    const mine = await client.exchangeCode(await consentCode());
    const { tokens } = await oauth.getToken({ code: await consentCode(), redirect_uri: config.redirectUri });
    same(ours[0]!, theirs[0]!);
    expect(ours[0]!.contentType).toBe(theirs[0]!.contentType);
    // The code differs (each is used once); every other field is the library's.
    expect(formOf(ours[0]!).filter(([k]) => k !== 'code')).toEqual(formOf(theirs[0]!).filter(([k]) => k !== 'code'));
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: GOOGLE_CALENDAR_SCOPES.join(' ') });
    expect(typeof tokens.access_token).toBe('string');
    expect(typeof tokens.refresh_token).toBe('string');
    expect(tokens.expiry_date).toBeGreaterThan(Date.now());
    expect(mine.scopes).toEqual(tokens.scope!.split(' '));

    ours.length = theirs.length = 0;
    await client.refresh(mine.refreshToken!);
    oauth.setCredentials({ refresh_token: mine.refreshToken! });
    const refreshed = await oauth.getAccessToken();
    same(ours[0]!, theirs[0]!);
    expect(formOf(ours[0]!)).toEqual(formOf(theirs[0]!));
    expect(typeof refreshed.token).toBe('string');
  });

  it('revokes at the revoke endpoint with the token, which Google takes in the form (ours) or the query (the library’s); the stand-in takes both', async () => {
    const { oauth } = libraryClient();
    const a = await client.exchangeCode(await consentCode());
    const b = await client.exchangeCode(await consentCode());
    ours.length = theirs.length = 0;
    await client.revoke(a.refreshToken!);
    await oauth.revokeToken(b.refreshToken!);
    expect([ours[0]!.method, ours[0]!.path]).toEqual([theirs[0]!.method, theirs[0]!.path]);
    expect(new URLSearchParams(ours[0]!.body).get('token')).toBe(a.refreshToken);
    expect(Object.fromEntries(theirs[0]!.query).token).toBe(b.refreshToken);
    // Both are gone: a refresh with either is invalid_grant.
    await expect(client.refresh(a.refreshToken!)).rejects.toMatchObject({ code: 'invalid_grant' });
    await expect(client.refresh(b.refreshToken!)).rejects.toMatchObject({ code: 'invalid_grant' });
  });

  it('asks only for scopes the discovery document grants for the calls it makes, and takes every scope that grants them', () => {
    expect(methodScopes('calendarList.list')).toContain(GOOGLE_CALENDAR_LIST_SCOPE);
    for (const call of ['events.insert', 'events.patch', 'events.delete']) expect(methodScopes(call)).toContain(GOOGLE_EVENTS_SCOPE);
    expect([...CALENDAR_LIST_SCOPES].sort()).toEqual(methodScopes('calendarList.list').sort());
    for (const call of ['events.insert', 'events.patch', 'events.delete']) for (const s of EVENT_WRITE_SCOPES) expect(methodScopes(call)).toContain(s);
    // A link holding only the full calendar scope (granted earlier, returned with include_granted_scopes) can list and write.
    expect(canListCalendars(['https://www.googleapis.com/auth/calendar'])).toBe(true);
    expect(canWriteEvents(['https://www.googleapis.com/auth/calendar'])).toBe(true);
    expect(canWriteEvents(['https://www.googleapis.com/auth/calendar.readonly'])).toBe(false);
  });

  it('the stand-in takes for each call the scopes the discovery document names', () => {
    expect([...LOCAL_GOOGLE_SCOPES['calendarList.list']].sort()).toEqual(methodScopes('calendarList.list').sort());
    for (const call of ['events.insert', 'events.patch', 'events.delete'])
      expect([...LOCAL_GOOGLE_SCOPES['events.write']].sort()).toEqual(methodScopes(call).sort());
    for (const call of ['events.list', 'events.get']) expect([...LOCAL_GOOGLE_SCOPES['events.read']].sort()).toEqual(methodScopes(call).sort());
    expect([...LOCAL_GOOGLE_SCOPES['calendars.delete']].sort()).toEqual(methodScopes('calendars.delete').sort());
  });
});

describe('Calendar API v3 against @googleapis/calendar', () => {
  let access: string;
  const event = googleEventBody(
    {
      appointmentId: 'appt-1',
      start: '2027-03-02T16:00:00.000Z',
      durationMinutes: 30,
      recurrence: { ...NO_RECURRENCE, frequency: 'Weekly', end: 'COUNT', count: 4 },
      excludedDays: ['2027-03-09'],
      visitType: 'in-person',
    } as never,
    { typeName: 'Follow-up', location: '12 Harbor St, Astoria OR', patientName: null, timeZone: 'America/Los_Angeles' },
  );

  beforeAll(async () => {
    access = (await client.exchangeCode(await consentCode())).accessToken;
  });

  it('lists calendars as the library does, and every calendar the stand-in answers is a CalendarListEntry', async () => {
    const { oauth, cal } = libraryClient();
    oauth.setCredentials({ access_token: access });
    ours.length = theirs.length = 0;
    const mine = await client.calendarList(access);
    const lib = await cal.calendarList.list({ maxResults: 250 });
    same(ours[0]!, theirs[0]!);
    expect(lib.data.kind).toBe('calendar#calendarList');
    expect(lib.data.items!.map((c) => c.id)).toEqual(mine.map((c) => c.id));
    for (const entry of lib.data.items!) expect(unknownFields(entry as Record<string, unknown>, 'CalendarListEntry')).toEqual([]);
    expect(unknownFields(lib.data as Record<string, unknown>, 'CalendarList')).toEqual([]);
  });

  it('inserts, patches and deletes events with the requests the library sends, fields all in the Event schema', async () => {
    const { oauth, cal } = libraryClient();
    oauth.setCredentials({ access_token: access });
    const calendarId = 'contract@gmail.local';
    expect(unknownFields({ id: 'x', ...event }, 'Event', EVENT_NESTED)).toEqual([]);

    ours.length = theirs.length = 0;
    await client.insertEvent(access, calendarId, 'contractappt00001', event);
    const inserted = await cal.events.insert({ calendarId, requestBody: { id: 'contractappt00002', ...event } });
    same(ours[0]!, { ...theirs[0]!, path: theirs[0]!.path.replace('contractappt00002', 'contractappt00001') });
    expect(ours[0]!.contentType).toBe(theirs[0]!.contentType);
    expect({ ...JSON.parse(ours[0]!.body), id: 'same' }).toEqual({ ...JSON.parse(theirs[0]!.body), id: 'same' });
    expect(inserted.data).toMatchObject({ id: 'contractappt00002', status: 'confirmed', kind: 'calendar#event' });
    expect(unknownFields(inserted.data as Record<string, unknown>, 'Event', EVENT_NESTED)).toEqual([]);

    // An id already used answers 409 duplicate, as the library reads it.
    const dup = await cal.events
      .insert({ calendarId, requestBody: { id: 'contractappt00002', ...event } })
      .catch((e: { status: number; response?: { data?: unknown } }) => e);
    // The library read the stand-in's error body: its code and message are Google's.
    expect(dup).toMatchObject({ status: 409, code: 409, message: 'The requested identifier already exists.' });
    await expect(client.insertEvent(access, calendarId, 'contractappt00001', event)).rejects.toEqual(new GoogleError(409, 'duplicate'));

    ours.length = theirs.length = 0;
    const change = { summary: 'Appointment: Annual', recurrence: [] as string[] };
    await client.patchEvent(access, calendarId, 'contractappt00001', change);
    const patched = await cal.events.patch({ calendarId, eventId: 'contractappt00001', requestBody: change });
    same(ours[0]!, theirs[0]!);
    expect(JSON.parse(ours[0]!.body)).toEqual(JSON.parse(theirs[0]!.body));
    expect(patched.data).toMatchObject({ summary: 'Appointment: Annual', recurrence: [] });

    ours.length = theirs.length = 0;
    await client.deleteEvent(access, calendarId, 'contractappt00001');
    await cal.events.delete({ calendarId, eventId: 'contractappt00002' });
    same(ours[0]!, { ...theirs[0]!, path: theirs[0]!.path.replace('contractappt00002', 'contractappt00001') });
    expect(ours[0]!.body).toBe('');
    // Deleted again: 410 at Google, which the adapter takes as gone.
    await expect(cal.events.delete({ calendarId, eventId: 'contractappt00002' })).rejects.toMatchObject({ status: 410 });
    await expect(client.deleteEvent(access, calendarId, 'contractappt00002')).resolves.toBeUndefined();
  });

  it('addresses a calendar whose id has # and @ exactly as the library does', async () => {
    const { oauth, cal } = libraryClient();
    oauth.setCredentials({ access_token: access });
    ours.length = theirs.length = 0;
    const id = 'en.usa#holiday@group.v.calendar.google.com';
    await client.insertEvent(access, id, 'contractappt00003', event).catch(() => undefined);
    await cal.events.insert({ calendarId: id, requestBody: { id: 'contractappt00003', ...event } }).catch(() => undefined);
    expect(ours[0]!.path).toBe(theirs[0]!.path);
  });
});
