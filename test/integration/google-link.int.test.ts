import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { api, createTestUser, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';

const run = Date.now().toString(36);
const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.readonly';
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
    expect((await api(provider, 'GET', `${linkPath(providerId)}/calendars`)).body).toEqual({ linked: false, linkedAt: null, calendars: [] });
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
    for (const body of [{ scopes: CALENDAR_SCOPE, state }, { code: back.searchParams.get('code'), state }, { code: '', scopes: '', state }, { code: back.searchParams.get('code'), scopes: [], state }, {}]) {
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
    const noCalendar = await api(provider, 'POST', `${linkPath(providerId)}/credentials`, { code: back.searchParams.get('code'), scopes: 'openid email', state: back.searchParams.get('state') });
    expect(noCalendar.status).toBe(400);
    expect(noCalendar.body.message).toBe('Google did not grant calendar access. Link Google Calendar again and allow it.');

    // The colleague's own state cannot carry the provider's Google code into the colleague's account.
    const colleagueId = (await api(colleague, 'GET', '/v1/practices/users/me')).body.userId;
    const theirs = await startLink(provider, providerId);
    await api(colleague, 'GET', linkPath(colleagueId));
    const crossed = await api(colleague, 'POST', `${linkPath(colleagueId)}/credentials`, { code: theirs.searchParams.get('code'), scopes: theirs.searchParams.get('scope'), state: theirs.searchParams.get('state') });
    expect(crossed.status).toBe(400);
    expect((await api(colleague, 'GET', `${linkPath(colleagueId)}/calendars`)).body.linked).toBe(false);
  });

  it("lets a user link only their own: a colleague, an admin, another practice and no token are refused", async () => {
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
      await api(provider, 'POST', `${linkPath(providerId)}/credentials`, { code: back.searchParams.get('code'), scopes: back.searchParams.get('scope'), state: back.searchParams.get('state') });
    }
    const unlinked = await api(provider, 'DELETE', `${linkPath(providerId)}/credentials`);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual({ linked: false, linkedAt: null, calendars: [] });
    expect((await api(provider, 'GET', `${linkPath(providerId)}/calendars`)).body.linked).toBe(false);
    const twice = await api(provider, 'DELETE', `${linkPath(providerId)}/credentials`);
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe('Google Calendar is not linked');

    // An admin unlinks someone who left; the link is theirs to remove, not to read.
    const back = await startLink(provider, providerId);
    expect((await api(provider, 'POST', `${linkPath(providerId)}/credentials`, { code: back.searchParams.get('code'), scopes: back.searchParams.get('scope'), state: back.searchParams.get('state') })).status).toBe(200);
    expect((await api(admin, 'DELETE', `${linkPath(providerId)}/credentials`)).status).toBe(200);
    expect((await api(provider, 'GET', `${linkPath(providerId)}/calendars`)).body.linked).toBe(false);
  });

  it("the local stand-in's token endpoint checks the client secret, the code and the redirect_uri as Google does", async () => {
    const client = JSON.parse(JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')).google) as { clientId: string; clientSecret: string; redirectUri: string };
    const token = (form: Record<string, string>) => fetch(`${stackOutputs().webUrl}/local/google/token`, { method: 'POST', body: new URLSearchParams(form) }).then(async (r) => ({ status: r.status, body: await r.json() }));
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
