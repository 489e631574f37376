/**
 * Google Calendar through Google's OAuth 2.0 web-server flow, as Google documents it:
 * - consent: GET https://accounts.google.com/o/oauth2/v2/auth ?client_id &redirect_uri
 *   &response_type=code &scope (space-separated) &access_type=offline &prompt=consent &state;
 *   Google sends the browser back to redirect_uri with ?state &code &scope (the granted scopes,
 *   space-separated) or ?error=access_denied.
 * - token: POST https://oauth2.googleapis.com/token, application/x-www-form-urlencoded
 *   (code, client_id, client_secret, redirect_uri, grant_type=authorization_code) →
 *   { access_token, expires_in, refresh_token, scope, token_type: "Bearer" }; a used or expired
 *   code answers 400 { error: "invalid_grant" }. The same endpoint with grant_type=refresh_token
 *   (refresh_token, client_id, client_secret) gives a new access_token.
 * - revoke: POST https://oauth2.googleapis.com/revoke with token=.
 * - GET https://www.googleapis.com/calendar/v3/users/me/calendarList with `Authorization: Bearer`
 *   → { kind: "calendar#calendarList", items: [{ id, summary, summaryOverride?, primary?,
 *   accessRole, backgroundColor?, timeZone? }], nextPageToken? }.
 * - events (Calendar API v3 Events resource), each with `Authorization: Bearer`:
 *   insert  POST   /calendars/{calendarId}/events            (body: the event; `id` may be chosen by the
 *           client: base32hex characters a-v and 0-9, 5 to 1024 long; an id already used in the
 *           calendar, even by a deleted event, answers 409 with reason "duplicate");
 *   patch   PATCH  /calendars/{calendarId}/events/{eventId}  (only the fields sent change);
 *   delete  DELETE /calendars/{calendarId}/events/{eventId}  (204; 410 "deleted" when already gone).
 *   An event: { summary, location?, description?, start: { dateTime, timeZone }, end: { dateTime,
 *   timeZone }, recurrence?: ["RRULE:...", "EXDATE;TZID=<zone>:<local times>"], status? }. Errors
 *   answer { error: { code, message, errors: [{ domain, reason, message }] } }.
 *
 * The practice's OAuth client sits in the partner secret JSON under `google`, as a JSON string
 * `{"clientId": "...", "clientSecret": "...", "redirectUri": "https://<web>/google-callback"}`
 * (plus the endpoint URLs, which only the local stand-in sets).
 */
import type { HttpExchange } from './sms-carrier.js';

export const GOOGLE_AUTH_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const GOOGLE_REVOKE_URL = 'https://oauth2.googleapis.com/revoke';
export const GOOGLE_CALENDAR_API = 'https://www.googleapis.com/calendar/v3';
/** Writing the user's appointments as events in the calendar they choose. */
export const GOOGLE_EVENTS_SCOPE = 'https://www.googleapis.com/auth/calendar.events';
/** Listing the user's calendars so they can choose one (narrower than calendar.readonly, which links made before events were written hold). */
export const GOOGLE_CALENDAR_LIST_SCOPE = 'https://www.googleapis.com/auth/calendar.calendarlist.readonly';
export const GOOGLE_READONLY_SCOPE = 'https://www.googleapis.com/auth/calendar.readonly';
/** What the consent asks for. */
export const GOOGLE_CALENDAR_SCOPES = [GOOGLE_CALENDAR_LIST_SCOPE, GOOGLE_EVENTS_SCOPE] as const;
const SCOPE = 'https://www.googleapis.com/auth/';
/** The scopes the v3 discovery document grants calendarList.list: any of them lists the calendars. */
export const CALENDAR_LIST_SCOPES = [`${SCOPE}calendar`, `${SCOPE}calendar.calendarlist`, GOOGLE_CALENDAR_LIST_SCOPE, GOOGLE_READONLY_SCOPE] as const;
/** The scopes events.insert, patch and delete take for any calendar the user can write (calendar.events.owned and calendar.app.created reach only some). */
export const EVENT_WRITE_SCOPES = [`${SCOPE}calendar`, GOOGLE_EVENTS_SCOPE] as const;
export const canListCalendars = (scopes: readonly string[]) => CALENDAR_LIST_SCOPES.some((s) => scopes.includes(s));
export const canWriteEvents = (scopes: readonly string[]) => EVENT_WRITE_SCOPES.some((s) => scopes.includes(s));

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  calendarApiUrl: string;
}

const url = (value: unknown, fallback: string) => (typeof value === 'string' && /^https?:\/\//.test(value) ? value.replace(/\/$/, '') : fallback);

export function parseGoogleConfig(text: string | null): GoogleConfig | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    if (typeof raw.clientId !== 'string' || !raw.clientId || typeof raw.clientSecret !== 'string' || !raw.clientSecret) return null;
    if (typeof raw.redirectUri !== 'string' || !/^https?:\/\//.test(raw.redirectUri)) return null;
    return {
      clientId: raw.clientId,
      clientSecret: raw.clientSecret,
      redirectUri: raw.redirectUri,
      authUrl: url(raw.authUrl, GOOGLE_AUTH_URL),
      tokenUrl: url(raw.tokenUrl, GOOGLE_TOKEN_URL),
      revokeUrl: url(raw.revokeUrl, GOOGLE_REVOKE_URL),
      calendarApiUrl: url(raw.calendarApiUrl, GOOGLE_CALENDAR_API),
    };
  } catch {
    return null;
  }
}

export interface GoogleTokens {
  accessToken: string;
  /** Present on a code exchange with access_type=offline and prompt=consent; absent on a refresh. */
  refreshToken: string | null;
  expiresIn: number;
  scopes: string[];
}

export interface GoogleCalendarEntry {
  id: string;
  summary: string;
  primary: boolean;
  accessRole: string;
  backgroundColor: string | null;
  timeZone: string | null;
}

export interface GoogleEventDateTime {
  dateTime: string;
  timeZone: string;
}
/** The fields Tidewell writes on an event. */
export interface GoogleEventBody {
  summary: string;
  location: string;
  description: string;
  start: GoogleEventDateTime;
  end: GoogleEventDateTime;
  /** RRULE and EXDATE lines; an empty list makes a patched event single again. */
  recurrence: string[];
  status?: 'confirmed';
  extendedProperties?: { private: Record<string, string> };
}

/** Google's OAuth error code (`invalid_grant`, `invalid_client`…), the API's error reason (`duplicate`, `notFound`…) or its HTTP status. */
export class GoogleError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`Google answered ${status} ${code}`);
  }
}

/** A booking waits on Google at most this long. */
const TIMEOUT_MS = 8000;
const fetchExchange: HttpExchange = async (target, init) => {
  const bodiless = init.method === 'GET' || init.method === 'DELETE';
  const response = await fetch(target, { ...(bodiless ? { method: init.method, headers: init.headers } : init), signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: response.status, body: await response.text() };
};

function errorOf(status: number, body: string): GoogleError {
  try {
    const parsed = JSON.parse(body) as { error?: string | { status?: string; errors?: { reason?: string }[] } };
    const code = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.errors?.[0]?.reason ?? parsed.error?.status ?? `HTTP${status}`);
    return new GoogleError(status, code);
  } catch {
    return new GoogleError(status, `HTTP${status}`);
  }
}

export class GoogleCalendarClient {
  constructor(
    private readonly config: GoogleConfig,
    private readonly exchange: HttpExchange = fetchExchange,
  ) {}

  /** Where the browser goes to grant access; `state` comes back unchanged with the code. */
  consentUrl(state: string): string {
    const query = new URLSearchParams({
      client_id: this.config.clientId,
      redirect_uri: this.config.redirectUri,
      response_type: 'code',
      scope: GOOGLE_CALENDAR_SCOPES.join(' '),
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state,
    });
    return `${this.config.authUrl}?${query.toString()}`;
  }

  private async token(form: Record<string, string>): Promise<GoogleTokens> {
    const answer = await this.exchange(this.config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ client_id: this.config.clientId, client_secret: this.config.clientSecret, ...form }).toString(),
    });
    if (answer.status !== 200) throw errorOf(answer.status, answer.body);
    const raw = JSON.parse(answer.body) as { access_token?: string; refresh_token?: string; expires_in?: number; scope?: string };
    if (!raw.access_token) throw new GoogleError(answer.status, 'no_access_token');
    return {
      accessToken: raw.access_token,
      refreshToken: raw.refresh_token ?? null,
      expiresIn: raw.expires_in ?? 0,
      scopes: (raw.scope ?? '').split(' ').filter(Boolean),
    };
  }

  exchangeCode(code: string): Promise<GoogleTokens> {
    return this.token({ code, redirect_uri: this.config.redirectUri, grant_type: 'authorization_code' });
  }

  refresh(refreshToken: string): Promise<GoogleTokens> {
    return this.token({ refresh_token: refreshToken, grant_type: 'refresh_token' });
  }

  async revoke(token: string): Promise<void> {
    const answer = await this.exchange(this.config.revokeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    // A token Google already forgot answers 400 invalid_token: revoked either way.
    if (answer.status !== 200 && answer.status !== 400) throw errorOf(answer.status, answer.body);
  }

  /** Every page of the user's calendar list. */
  async calendarList(accessToken: string): Promise<GoogleCalendarEntry[]> {
    const entries: GoogleCalendarEntry[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < 20; page++) {
      const query = new URLSearchParams({ maxResults: '250', ...(pageToken ? { pageToken } : {}) });
      const answer = await this.exchange(`${this.config.calendarApiUrl}/users/me/calendarList?${query.toString()}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        body: '',
      });
      if (answer.status !== 200) throw errorOf(answer.status, answer.body);
      const raw = JSON.parse(answer.body) as {
        items?: {
          id: string;
          summary?: string;
          summaryOverride?: string;
          primary?: boolean;
          accessRole?: string;
          backgroundColor?: string;
          timeZone?: string;
        }[];
        nextPageToken?: string;
      };
      for (const item of raw.items ?? []) {
        entries.push({
          id: item.id,
          summary: item.summaryOverride ?? item.summary ?? item.id,
          primary: item.primary === true,
          accessRole: item.accessRole ?? 'reader',
          backgroundColor: item.backgroundColor ?? null,
          timeZone: item.timeZone ?? null,
        });
      }
      pageToken = raw.nextPageToken;
      if (!pageToken) break;
    }
    return entries;
  }

  private eventsUrl(calendarId: string, eventId?: string): string {
    return `${this.config.calendarApiUrl}/calendars/${encodeURIComponent(calendarId)}/events${eventId ? `/${encodeURIComponent(eventId)}` : ''}`;
  }

  private async call(method: string, target: string, accessToken: string, body?: unknown): Promise<{ status: number; body: string }> {
    return this.exchange(target, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? '' : JSON.stringify(body),
    });
  }

  /** Inserts the event under the id the caller chose; an id already in the calendar is a GoogleError `duplicate` (409). */
  async insertEvent(accessToken: string, calendarId: string, eventId: string, event: GoogleEventBody): Promise<{ id: string }> {
    const answer = await this.call('POST', this.eventsUrl(calendarId), accessToken, { id: eventId, ...event });
    if (answer.status !== 200) throw errorOf(answer.status, answer.body);
    return { id: (JSON.parse(answer.body) as { id?: string }).id ?? eventId };
  }

  async patchEvent(accessToken: string, calendarId: string, eventId: string, event: Partial<GoogleEventBody>): Promise<void> {
    const answer = await this.call('PATCH', this.eventsUrl(calendarId, eventId), accessToken, event);
    if (answer.status !== 200) throw errorOf(answer.status, answer.body);
  }

  /** Deletes the event; one Google no longer has (404, or 410 once deleted) is gone all the same. */
  async deleteEvent(accessToken: string, calendarId: string, eventId: string): Promise<void> {
    const answer = await this.call('DELETE', this.eventsUrl(calendarId, eventId), accessToken);
    if (answer.status === 204 || answer.status === 200 || answer.status === 404 || answer.status === 410) return;
    throw errorOf(answer.status, answer.body);
  }
}
