/**
 * Google (local stand-in): the OAuth 2.0 and Calendar endpoints `npm start` serves at
 * /local/google, answering like Google's documented ones. Its consent page (what
 * accounts.google.com/o/oauth2/v2/auth shows) checks client_id, redirect_uri and response_type,
 * and sends the browser back to the redirect_uri with `code`, the granted `scope` and `state`, or
 * `error=access_denied`. Its token endpoint checks the client secret, and refuses with
 * `invalid_grant` a code that is unknown, used, expired or issued for another redirect_uri; its
 * calendarList answers for the access token it issued. Its own copy of the OAuth client is the
 * `google` entry of the data folder's partner-secrets.json.
 *
 * Its Calendar API answers calendarList and the events resource (insert with a client-chosen
 * base32hex id, patch, delete, list) for the account an access token belongs to, checking what
 * Google checks: the bearer token and its scopes, that the calendar exists and takes events from
 * this account, start and end (end not before start, a zone on a recurring start), and the RRULE /
 * EXDATE lines' syntax. Deleted events stay as `cancelled` (their id stays taken), as at Google.
 * `calendars.delete` removes a secondary calendar. /local/google/calendar shows each calendar's events.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

export const LOCAL_GOOGLE_LABEL = 'Local Google stand-in';
export const LOCAL_GOOGLE_PREFIX = '/local/google';
const SCOPE = 'https://www.googleapis.com/auth/';
const SCOPE_LABELS: Record<string, string> = {
  [`${SCOPE}calendar.readonly`]: 'See your calendars (read only)',
  [`${SCOPE}calendar.calendarlist.readonly`]: 'See the list of Google calendars you are subscribed to',
  [`${SCOPE}calendar.events`]: 'View and edit events on all your calendars',
  [`${SCOPE}calendar`]: 'See, edit, share, and permanently delete all the calendars you can access using Google Calendar',
};
/** Each call's scopes as the Calendar v3 discovery document lists them (checked in google-calendar.contract.test.ts). */
export const LOCAL_GOOGLE_SCOPES = {
  'calendarList.list': [`${SCOPE}calendar`, `${SCOPE}calendar.calendarlist`, `${SCOPE}calendar.calendarlist.readonly`, `${SCOPE}calendar.readonly`],
  'events.write': [`${SCOPE}calendar`, `${SCOPE}calendar.app.created`, `${SCOPE}calendar.events`, `${SCOPE}calendar.events.owned`],
  'events.read': [
    `${SCOPE}calendar`,
    `${SCOPE}calendar.app.created`,
    `${SCOPE}calendar.events`,
    `${SCOPE}calendar.events.freebusy`,
    `${SCOPE}calendar.events.owned`,
    `${SCOPE}calendar.events.owned.readonly`,
    `${SCOPE}calendar.events.public.readonly`,
    `${SCOPE}calendar.events.readonly`,
    `${SCOPE}calendar.readonly`,
  ],
  'calendars.delete': [`${SCOPE}calendar`, `${SCOPE}calendar.app.created`, `${SCOPE}calendar.calendars`],
} as const;
const LIST_SCOPES = LOCAL_GOOGLE_SCOPES['calendarList.list'];
const EVENT_SCOPES = LOCAL_GOOGLE_SCOPES['events.write'];
const EVENT_READ_SCOPES = LOCAL_GOOGLE_SCOPES['events.read'];
const EVENT_ID = /^[a-v0-9]{5,1024}$/;
const RRULE_KEYS = new Set([
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);
const CODE_TTL_MS = 10 * 60_000;
const ACCESS_TTL_S = 3599;

interface Client {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

interface State {
  codes: { code: string; clientId: string; redirectUri: string; scope: string; account: string; issuedAt: number; used: boolean }[];
  refreshTokens: { token: string; clientId: string; scope: string; account: string }[];
  accessTokens: { token: string; account: string; expiresAt: number; scope?: string }[];
  events?: { account: string; calendarId: string; event: LocalEvent }[];
  deletedCalendars?: string[];
}

type LocalEvent = Record<string, unknown> & { id: string; status: string; updated: string };

/** One Google API error, in Calendar API v3's shape. */
const apiError = (code: number, reason: string, message: string) => ({ error: { code, message, errors: [{ domain: 'global', reason, message }] } });

/** Google's answer to a recurrence it cannot read, or null when every line is well formed. */
export function recurrenceProblem(lines: unknown): string | null {
  if (lines === undefined || lines === null) return null;
  if (!Array.isArray(lines)) return 'Invalid recurrence rule.';
  for (const line of lines) {
    if (typeof line !== 'string') return 'Invalid recurrence rule.';
    if (line.startsWith('RRULE:') || line.startsWith('EXRULE:')) {
      const parts = line.slice(line.indexOf(':') + 1).split(';');
      const rule = new Map(parts.map((p) => p.split('=') as [string, string]));
      if (parts.some((p) => !/^[A-Z]+=[A-Z0-9,+-]+$/.test(p)) || [...rule.keys()].some((k) => !RRULE_KEYS.has(k))) return 'Invalid recurrence rule.';
      if (!/^(SECONDLY|MINUTELY|HOURLY|DAILY|WEEKLY|MONTHLY|YEARLY)$/.test(rule.get('FREQ') ?? '')) return 'Invalid recurrence rule.';
      if (rule.has('UNTIL') && rule.has('COUNT')) return 'Invalid recurrence rule.';
      if (rule.has('UNTIL') && !/^\d{8}(T\d{6}Z?)?$/.test(rule.get('UNTIL')!)) return 'Invalid recurrence rule.';
      if (rule.has('COUNT') && !/^[1-9]\d*$/.test(rule.get('COUNT')!)) return 'Invalid recurrence rule.';
      if (rule.has('INTERVAL') && !/^[1-9]\d*$/.test(rule.get('INTERVAL')!)) return 'Invalid recurrence rule.';
      if (
        rule.has('BYDAY') &&
        !rule
          .get('BYDAY')!
          .split(',')
          .every((d) => /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/.test(d))
      )
        return 'Invalid recurrence rule.';
    } else if (/^(EXDATE|RDATE)[;:]/.test(line)) {
      const m = /^(EXDATE|RDATE)(;TZID=[^:;]+|;VALUE=DATE)?:(.+)$/.exec(line);
      if (!m || !m[3].split(',').every((v) => /^\d{8}(T\d{6}Z?)?$/.test(v))) return 'Invalid recurrence rule.';
    } else return 'Invalid recurrence rule.';
  }
  return null;
}

/** Google's answer to an event's start and end it refuses, or null. */
function timesProblem(event: Record<string, unknown>): string | null {
  const start = event.start as { dateTime?: string; date?: string; timeZone?: string } | undefined;
  const end = event.end as { dateTime?: string; date?: string; timeZone?: string } | undefined;
  if (!start || !(start.dateTime || start.date)) return 'Start and end times must either both be date or both be dateTime.';
  if (!end || !(end.dateTime || end.date)) return 'Missing end time.';
  const from = Date.parse(start.dateTime ?? start.date!);
  const to = Date.parse(end.dateTime ?? end.date!);
  if (Number.isNaN(from) || Number.isNaN(to)) return 'Invalid value for start or end.';
  if (to < from) return 'The specified time range is empty.';
  if (Array.isArray(event.recurrence) && event.recurrence.length && start.dateTime && !start.timeZone) return 'Missing time zone definition for start time.';
  return null;
}

/** Writes the practice's Google OAuth client (the stand-in's endpoints) into the partner secrets. */
export function ensureLocalGoogle(secretsFile: string, apiOrigin: string, appOrigin: string): void {
  const secrets = existsSync(secretsFile) ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>) : {};
  let entry: Partial<Client> = {};
  try {
    entry = JSON.parse(secrets.google ?? '{}') as Partial<Client>;
  } catch {
    /* rewritten below */
  }
  secrets.google = JSON.stringify({
    clientId: entry.clientId ?? `${randomBytes(6).toString('hex')}-local.apps.googleusercontent.com`,
    clientSecret: entry.clientSecret ?? `GOCSPX-${randomBytes(18).toString('base64url')}`,
    redirectUri: `${appOrigin}/google-callback`,
    authUrl: `${appOrigin}${LOCAL_GOOGLE_PREFIX}/o/oauth2/v2/auth`,
    tokenUrl: `${apiOrigin}${LOCAL_GOOGLE_PREFIX}/token`,
    revokeUrl: `${apiOrigin}${LOCAL_GOOGLE_PREFIX}/revoke`,
    calendarApiUrl: `${apiOrigin}${LOCAL_GOOGLE_PREFIX}/calendar/v3`,
  });
  writeFileSync(secretsFile, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 50_000) throw new Error('Request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:1rem;color:#1a1a1a;background:#fff}main{max-width:36rem}main:has(table){max-width:none}label{display:block;margin-top:1rem;font-weight:600}input[type=email]{font:inherit;box-sizing:border-box;width:100%}.actions{display:flex;gap:.75rem;margin-top:1.25rem}button{padding:.5rem 1.25rem;font:inherit;border-radius:4px;border:1px solid #005377}button.allow{background:#005377;color:#fff}button.deny{background:#fff;color:#005377}:focus-visible{outline:3px solid #005377;outline-offset:2px}.tag{display:inline-block;background:#fff4ce;border:1px solid #8a6d00;padding:0 .5rem;border-radius:4px;font-size:.875rem;font-weight:400}code{word-break:break-all}table{border-collapse:collapse;margin-top:1rem}.scroll{overflow-x:auto}th,td{border:1px solid #767676;padding:.25rem .5rem;text-align:left;vertical-align:top}td{word-break:break-word}';

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} (${LOCAL_GOOGLE_LABEL})</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)} <span class="tag">${LOCAL_GOOGLE_LABEL}</span></h1>${body}</main></body></html>`;
}

/** The calendars a local account has: its own, plus two it subscribes to. */
export function localCalendars(account: string) {
  return [
    {
      kind: 'calendar#calendarListEntry',
      id: account,
      summary: account,
      primary: true,
      accessRole: 'owner',
      backgroundColor: '#9fe1e7',
      timeZone: 'America/Chicago',
    },
    {
      kind: 'calendar#calendarListEntry',
      id: `on-call-${account}`,
      summary: 'Clinic on-call',
      accessRole: 'owner',
      backgroundColor: '#f691b2',
      timeZone: 'America/Chicago',
    },
    {
      kind: 'calendar#calendarListEntry',
      id: 'en.usa#holiday@group.v.calendar.google.com',
      summary: 'Holidays in United States',
      accessRole: 'reader',
      backgroundColor: '#16a765',
      timeZone: 'America/Chicago',
    },
  ];
}

export function createLocalGoogle(opts: { dataDir: string; secretsFile: string; now?: () => number }) {
  const file = join(opts.dataDir, 'google.json');
  const state: State = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as State) : { codes: [], refreshTokens: [], accessTokens: [] };
  const now = () => (opts.now ?? Date.now)();

  function save(): void {
    const t = now();
    state.codes = state.codes.filter((c) => t - c.issuedAt < CODE_TTL_MS * 6);
    state.accessTokens = state.accessTokens.filter((a) => a.expiresAt > t);
    mkdirSync(opts.dataDir, { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(state));
    renameSync(`${file}.tmp`, file);
  }

  function client(): Client | null {
    try {
      const entry = (JSON.parse(readFileSync(opts.secretsFile, 'utf8')) as Record<string, string>).google;
      return entry ? (JSON.parse(entry) as Client) : null;
    } catch {
      return null;
    }
  }

  const json = (res: ServerResponse, status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  const page = (res: ServerResponse, status: number, title: string, body: string) =>
    void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html(title, body));
  const redirect = (res: ServerResponse, to: string) => void res.writeHead(302, { location: to }).end();
  const back = (redirectUri: string, params: Record<string, string>) => `${redirectUri}?${new URLSearchParams(params).toString()}`;

  /** Google shows its error page (not a redirect) for a client or redirect_uri it does not know. */
  function checkConsentRequest(q: URLSearchParams): string | null {
    const c = client();
    if (!c || q.get('client_id') !== c.clientId) return 'Error 401: invalid_client. The OAuth client was not found.';
    if (q.get('redirect_uri') !== c.redirectUri)
      return 'Error 400: redirect_uri_mismatch. The redirect URI in the request does not match the ones authorized for the OAuth client.';
    if (q.get('response_type') !== 'code') return 'Error 400: unsupported_response_type.';
    if (!q.get('scope')) return 'Error 400: invalid_request. Missing required parameter: scope';
    return null;
  }

  function consentPage(q: URLSearchParams): string {
    const hidden = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'access_type', 'prompt']
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q.get(k) ?? '')}">`)
      .join('');
    const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
    const wants = scopes.map((s) => `<li>${escapeHtml(SCOPE_LABELS[s] ?? s)}</li>`).join('');
    return `<p>Tidewell wants to access your Google Account.</p><form method="post" action="${LOCAL_GOOGLE_PREFIX}/o/oauth2/v2/approve">${hidden}
<label for="account">Google account</label><input type="email" id="account" name="account" required value="demo.provider@gmail.local" autocomplete="email">
<p>This will allow Tidewell to:</p><ul>${wants}</ul>
<div class="actions"><button class="allow" type="submit" name="decision" value="allow">Allow</button><button class="deny" type="submit" name="decision" value="deny" formnovalidate>Cancel</button></div></form>`;
  }

  function issueTokens(clientId: string, scope: string, account: string, withRefresh: boolean) {
    const access = `ya29.local-${randomBytes(24).toString('base64url')}`;
    state.accessTokens.push({ token: access, account, expiresAt: now() + ACCESS_TTL_S * 1000, scope });
    const answer: Record<string, unknown> = { access_token: access, expires_in: ACCESS_TTL_S, scope, token_type: 'Bearer' };
    if (withRefresh) {
      const refresh = `1//local-${randomBytes(32).toString('base64url')}`;
      state.refreshTokens.push({ token: refresh, clientId, scope, account });
      answer.refresh_token = refresh;
    }
    save();
    return answer;
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(req));
    const c = client();
    if (!c || form.get('client_id') !== c.clientId || !same(form.get('client_secret') ?? '', c.clientSecret)) {
      return json(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    }
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const found = state.codes.find((x) => x.code === form.get('code'));
      if (!found || found.used || now() - found.issuedAt > CODE_TTL_MS || found.clientId !== c.clientId)
        return json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      if (form.get('redirect_uri') !== found.redirectUri) return json(res, 400, { error: 'redirect_uri_mismatch', error_description: 'Bad Request' });
      found.used = true;
      return json(res, 200, issueTokens(c.clientId, found.scope, found.account, true));
    }
    if (grant === 'refresh_token') {
      const found = state.refreshTokens.find((x) => x.token === form.get('refresh_token') && x.clientId === c.clientId);
      if (!found) return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return json(res, 200, issueTokens(c.clientId, found.scope, found.account, false));
    }
    return json(res, 400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grant ?? ''}` });
  }

  const calendarsOf = (account: string) => localCalendars(account).filter((c) => !(state.deletedCalendars ?? []).includes(`${account} ${c.id}`));

  async function calendarApi(req: IncomingMessage, res: ServerResponse, url: URL, path: string): Promise<void> {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const found = state.accessTokens.find((t) => t.token === bearer && t.expiresAt > now());
    if (!found)
      return json(res, 401, {
        error: {
          code: 401,
          message: 'Request had invalid authentication credentials.',
          status: 'UNAUTHENTICATED',
          errors: [{ domain: 'global', reason: 'authError', message: 'Invalid Credentials' }],
        },
      });
    const granted = (found.scope ?? '').split(' ');
    const scoped = (needed: readonly string[]) => needed.some((s) => granted.includes(s));
    const insufficient = () => json(res, 403, apiError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.'));
    if (req.method === 'GET' && path === '/users/me/calendarList') {
      if (!scoped(LIST_SCOPES)) return insufficient();
      return json(res, 200, { kind: 'calendar#calendarList', etag: `"${now()}"`, items: calendarsOf(found.account) });
    }
    const match = /^\/calendars\/([^/]+)(\/events(?:\/([^/]+))?)?$/.exec(path);
    if (!match) return json(res, 404, apiError(404, 'notFound', 'Not Found'));
    const calendarId = decodeURIComponent(match[1]);
    const key = calendarId === 'primary' ? found.account : calendarId;
    const calendar = calendarsOf(found.account).find((c) => c.id === key);
    if (!calendar) return json(res, 404, apiError(404, 'notFound', 'Not Found'));
    if (!match[2]) {
      // calendars.delete: a secondary calendar its owner removes, with the full calendar scope.
      if (req.method !== 'DELETE') return json(res, 404, apiError(404, 'notFound', 'Not Found'));
      if (!scoped(LOCAL_GOOGLE_SCOPES['calendars.delete'])) return insufficient();
      if (calendar.primary) return json(res, 400, apiError(400, 'cannotDeletePrimaryCalendar', 'Cannot delete primary calendar.'));
      if (calendar.accessRole !== 'owner') return json(res, 403, apiError(403, 'forbidden', 'Forbidden'));
      state.deletedCalendars = [...(state.deletedCalendars ?? []), `${found.account} ${calendar.id}`];
      save();
      return void res.writeHead(204).end();
    }
    const events = (state.events ??= []);
    const mine = (id: string) => events.find((e) => e.account === found.account && e.calendarId === calendar.id && e.event.id === id);
    const eventId = match[3] ? decodeURIComponent(match[3]) : null;
    if (req.method === 'GET' && !eventId) {
      if (!scoped(EVENT_READ_SCOPES)) return insufficient();
      const showDeleted = url.searchParams.get('showDeleted') === 'true';
      const items = events
        .filter((e) => e.account === found.account && e.calendarId === calendar.id && (showDeleted || e.event.status !== 'cancelled'))
        .map((e) => e.event);
      return json(res, 200, { kind: 'calendar#events', summary: calendar.summary, timeZone: calendar.timeZone, items });
    }
    if (!scoped(EVENT_SCOPES)) return insufficient();
    if (calendar.accessRole !== 'owner' && calendar.accessRole !== 'writer')
      return json(res, 403, apiError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.'));
    if (req.method === 'POST' && !eventId) {
      const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
      const id = typeof body.id === 'string' ? body.id : randomBytes(13).toString('hex');
      if (!EVENT_ID.test(id)) return json(res, 400, apiError(400, 'invalid', 'Invalid resource id value.'));
      const problem = timesProblem(body) ?? recurrenceProblem(body.recurrence);
      if (problem) return json(res, 400, apiError(400, 'invalid', problem));
      if (mine(id)) return json(res, 409, apiError(409, 'duplicate', 'The requested identifier already exists.'));
      const event: LocalEvent = {
        ...body,
        kind: 'calendar#event',
        id,
        status: typeof body.status === 'string' ? body.status : 'confirmed',
        created: new Date(now()).toISOString(),
        updated: new Date(now()).toISOString(),
      };
      events.push({ account: found.account, calendarId: calendar.id, event });
      save();
      return json(res, 200, event);
    }
    const existing = eventId ? mine(eventId) : undefined;
    if (!existing) return json(res, 404, apiError(404, 'notFound', 'Not Found'));
    if (req.method === 'GET') return json(res, 200, existing.event);
    if (req.method === 'PATCH' || req.method === 'PUT') {
      const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
      const next = {
        ...(req.method === 'PUT' ? {} : existing.event),
        ...body,
        kind: 'calendar#event',
        id: existing.event.id,
        created: existing.event.created,
      } as LocalEvent;
      next.status = typeof body.status === 'string' ? body.status : existing.event.status;
      const problem = timesProblem(next) ?? recurrenceProblem(next.recurrence);
      if (problem) return json(res, 400, apiError(400, 'invalid', problem));
      next.updated = new Date(now()).toISOString();
      existing.event = next;
      save();
      return json(res, 200, next);
    }
    if (req.method === 'DELETE') {
      if (existing.event.status === 'cancelled') return json(res, 410, apiError(410, 'deleted', 'Resource has been deleted'));
      existing.event = { ...existing.event, status: 'cancelled', updated: new Date(now()).toISOString() };
      save();
      return void res.writeHead(204).end();
    }
    return json(res, 404, apiError(404, 'notFound', 'Not Found'));
  }

  /** What each local account's calendars hold, as Google Calendar would show them. */
  function eventsPage(): string {
    const live = (state.events ?? []).filter((e) => e.event.status !== 'cancelled');
    if (!live.length) return '<p>No events yet.</p>';
    const rows = live
      .map(({ account, calendarId, event }) => {
        const start = (event.start as { dateTime?: string; timeZone?: string } | undefined) ?? {};
        const when = start.dateTime
          ? new Date(start.dateTime).toLocaleString('en-US', { timeZone: start.timeZone ?? 'UTC', dateStyle: 'medium', timeStyle: 'short' })
          : '';
        const calendar = localCalendars(account).find((c) => c.id === calendarId)?.summary ?? calendarId;
        const repeats = Array.isArray(event.recurrence) ? (event.recurrence as string[]).join(' ') : '';
        return `<tr><td>${escapeHtml(String(event.summary ?? ''))}</td><td>${escapeHtml(when)}</td><td>${escapeHtml(String(event.location ?? ''))}</td><td>${escapeHtml(repeats)}</td><td>${escapeHtml(calendar)}</td><td>${escapeHtml(account)}</td></tr>`;
      })
      .join('');
    return `<div class="scroll" role="region" aria-label="Events" tabindex="0"><table><caption>Events in the local Google accounts' calendars</caption><thead><tr><th scope="col">Title</th><th scope="col">Starts</th><th scope="col">Location</th><th scope="col">Repeats</th><th scope="col">Calendar</th><th scope="col">Account</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice(LOCAL_GOOGLE_PREFIX.length) || '/';
    try {
      if (req.method === 'GET' && path === '/o/oauth2/v2/auth') {
        const problem = checkConsentRequest(url.searchParams);
        if (problem) return page(res, 400, 'Access blocked: authorization error', `<p role="alert">${escapeHtml(problem)}</p>`);
        return page(res, 200, 'Sign in with Google', consentPage(url.searchParams));
      }
      if (req.method === 'POST' && path === '/o/oauth2/v2/approve') {
        const form = new URLSearchParams(await readBody(req));
        const problem = checkConsentRequest(form);
        if (problem) return page(res, 400, 'Access blocked: authorization error', `<p role="alert">${escapeHtml(problem)}</p>`);
        const redirectUri = form.get('redirect_uri')!;
        const stateParam = form.get('state') ?? '';
        if (form.get('decision') !== 'allow') return redirect(res, back(redirectUri, { error: 'access_denied', ...(stateParam ? { state: stateParam } : {}) }));
        const account = (form.get('account') ?? '').trim().toLowerCase() || 'demo.provider@gmail.local';
        const scope = form.get('scope')!;
        const code = `4/0local-${randomBytes(24).toString('base64url')}`;
        state.codes.push({ code, clientId: form.get('client_id')!, redirectUri, scope, account, issuedAt: now(), used: false });
        save();
        return redirect(res, back(redirectUri, { ...(stateParam ? { state: stateParam } : {}), code, scope }));
      }
      if (req.method === 'POST' && path === '/token') return await token(req, res);
      if (req.method === 'POST' && path === '/revoke') {
        const given = new URLSearchParams(await readBody(req)).get('token') ?? url.searchParams.get('token') ?? '';
        const before = state.refreshTokens.length + state.accessTokens.length;
        state.refreshTokens = state.refreshTokens.filter((t) => t.token !== given);
        state.accessTokens = state.accessTokens.filter((t) => t.token !== given);
        const removed = before !== state.refreshTokens.length + state.accessTokens.length;
        save();
        return removed ? json(res, 200, {}) : json(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
      }
      if (path.startsWith('/calendar/v3/')) return await calendarApi(req, res, url, path.slice('/calendar/v3'.length));
      if (req.method === 'GET' && path === '/calendar') return page(res, 200, 'Google Calendar events', eventsPage());
      return json(res, 404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
    } catch {
      return json(res, 400, { error: 'invalid_request' });
    }
  }

  return { handle };
}
