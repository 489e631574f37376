import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from '../../../shared/zod.js';
import { setRuntimeConfigForTests } from './runtime-config.js';

/** The stored session as Amplify gives it: an ID token whose `sub` is the user's id. */
let idToken: { token: string; sub: string } | undefined;
vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: async () => ({
    tokens: idToken ? { idToken: { toString: () => idToken!.token, payload: { sub: idToken.sub } } } : undefined,
  }),
  signOut: async () => undefined,
}));

const { apiRequest } = await import('./api-client.js');
const { askFirstScreenAnswers, firstScreenRequests, takeEarlyAnswer } = await import('./early-answers.js');

const API = 'https://api.example';
const Anything = z.unknown();
const calls: { url: string; authorization: string | undefined }[] = [];

/** The API as the browser reaches it: each answer names the address and the token it was asked with. */
function answeringApi(): typeof fetch {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const authorization = (init?.headers as Record<string, string> | undefined)?.Authorization;
    calls.push({ url: String(input), authorization });
    return new Response(JSON.stringify({ url: String(input), authorization }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
}

/** Lets the early asks (token, then fetch) run. */
const settle = () => new Promise((done) => setTimeout(done, 0));

describe("a returning user's first answers, asked before the app's code has run", () => {
  beforeEach(() => {
    calls.length = 0;
    idToken = { token: 'token-of-ana', sub: 'user-ana' };
    setRuntimeConfigForTests({ apiUrl: API, graphqlUrl: 'https://gql', userPoolId: 'pool', userPoolClientId: 'client', region: 'us-east-1', local: false });
    vi.stubGlobal('fetch', answeringApi());
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    setRuntimeConfigForTests(null);
  });

  it("are the session's own, and the dashboard's or the chart's, as the screens ask for them", () => {
    const session = ['/v1/practices/users/me', '/v1/practices/metadata', '/v1/notifications/unread-count'];
    expect(firstScreenRequests('#/home', 'user-ana').map((r) => r.path)).toEqual([...session, '/v1/practices/users/me/dashboard', '/v1/tasks']);
    expect(firstScreenRequests('#/home', 'user-ana')[4].query).toEqual({
      assigned: 'user-ana',
      status: 'UNREAD,UPDATED,READ',
      sort: 'dueOn',
      order: 'asc',
      limit: 6,
    });
    expect(firstScreenRequests('#/patients/pat-0001/notes', undefined).map((r) => r.path)).toEqual([
      ...session,
      '/v1/patients/pat-0001',
      '/v1/appointments/upcoming',
    ]);
    expect(firstScreenRequests('#/messages', 'user-ana').map((r) => r.path)).toEqual(session);
  });

  it('are each sent once: the screen that asks next gets the early answer instead of a second request', async () => {
    askFirstScreenAnswers('#/home', API);
    await settle();
    const early = calls.map((c) => c.url);
    expect(early).toContain(`${API}/v1/tasks?assigned=user-ana&status=UNREAD%2CUPDATED%2CREAD&sort=dueOn&order=asc&limit=6`);
    expect(calls.every((c) => c.authorization === 'Bearer token-of-ana')).toBe(true);

    const me = await apiRequest({ path: '/v1/practices/users/me' }, Anything);
    const tasks = await apiRequest(
      { path: '/v1/tasks', query: { assigned: 'user-ana', status: 'UNREAD,UPDATED,READ', sort: 'dueOn', order: 'asc', limit: 6 } },
      Anything,
    );
    expect(me).toEqual({ url: `${API}/v1/practices/users/me`, authorization: 'Bearer token-of-ana' });
    expect(tasks).toMatchObject({ authorization: 'Bearer token-of-ana' });
    expect(calls.map((c) => c.url)).toEqual(early);

    // Taken once: the next refetch is a request of its own.
    await apiRequest({ path: '/v1/practices/users/me' }, Anything);
    expect(calls).toHaveLength(early.length + 1);
  });

  it('are asked once each, even when the screen takes one before the token has named the user', async () => {
    askFirstScreenAnswers('#/home', API);
    // Taken at once, before the user's own asks (My Open Tasks) have been added.
    const me = takeEarlyAnswer(`${API}/v1/practices/users/me`, 'Bearer token-of-ana');
    await settle();
    expect(await (await me)?.json()).toEqual({ url: `${API}/v1/practices/users/me`, authorization: 'Bearer token-of-ana' });
    const urls = calls.map((c) => c.url);
    expect(urls.filter((url) => url === `${API}/v1/practices/users/me`)).toHaveLength(1);
    expect(urls.some((url) => url.startsWith(`${API}/v1/tasks?assigned=user-ana`))).toBe(true);
  });

  it("are never handed to another user signed in on the same browser: that user's client asks with its own token", async () => {
    askFirstScreenAnswers('#/patients/pat-0001', API);
    await settle();
    idToken = { token: 'token-of-ben', sub: 'user-ben' };
    const patient = await apiRequest({ path: '/v1/patients/pat-0001' }, Anything);
    expect(patient).toEqual({ url: `${API}/v1/patients/pat-0001`, authorization: 'Bearer token-of-ben' });
    expect(calls.at(-1)).toEqual({ url: `${API}/v1/patients/pat-0001`, authorization: 'Bearer token-of-ben' });
  });

  it('are not shown once they are older than a screen would wait for them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    askFirstScreenAnswers('#/home', API);
    await settle();
    const asked = calls.length;
    vi.setSystemTime(Date.now() + 16_000);
    await apiRequest({ path: '/v1/practices/metadata' }, Anything);
    expect(calls).toHaveLength(asked + 1);
  });

  it('are asked again by the screen when the early ask failed on the network', async () => {
    const api = answeringApi();
    let first = true;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (first) {
        first = false;
        return Promise.reject(new TypeError('Failed to fetch'));
      }
      return api(input, init);
    });
    askFirstScreenAnswers('#/messages', API);
    await settle();
    const me = await apiRequest({ path: '/v1/practices/users/me' }, Anything);
    expect(me).toEqual({ url: `${API}/v1/practices/users/me`, authorization: 'Bearer token-of-ana' });
  });

  it('ask nothing without a stored session: the app signs in as usual', async () => {
    idToken = undefined;
    askFirstScreenAnswers('#/home', API);
    await settle();
    expect(calls).toEqual([]);
  });
});
