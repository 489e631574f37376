import { describe, expect, it } from 'vitest';
import { GOOGLE_EVENTS_SCOPE, GoogleCalendarClient, GoogleError, parseGoogleConfig } from './google-calendar.js';
import type { HttpExchange } from './sms-carrier.js';

const GOOGLE_CALENDAR_SCOPE = GOOGLE_EVENTS_SCOPE;
const config = parseGoogleConfig(
  JSON.stringify({ clientId: 'client-1.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret', redirectUri: 'https://app.example.com/google-callback' }),
)!;

function recorder(answers: { status: number; body: string }[]) {
  const calls: { url: string; method: string; headers: Record<string, string>; body: string }[] = [];
  const exchange: HttpExchange = async (url, init) => {
    calls.push({ url, ...init });
    return answers.shift() ?? { status: 500, body: '' };
  };
  return { calls, exchange };
}

describe('Google Calendar adapter', () => {
  it('reads the OAuth client from the partner secret, with Google endpoints unless the entry names others', () => {
    expect(config).toMatchObject({ tokenUrl: 'https://oauth2.googleapis.com/token', authUrl: 'https://accounts.google.com/o/oauth2/v2/auth' });
    expect(parseGoogleConfig(JSON.stringify({ clientId: 'x', redirectUri: 'https://a/b' }))).toBeNull();
    expect(parseGoogleConfig('not json')).toBeNull();
    expect(parseGoogleConfig(null)).toBeNull();
  });

  it('sends the browser to Google consent for offline access to list calendars and write events, with the state', () => {
    const url = new URL(new GoogleCalendarClient(config).consentUrl('state-123'));
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'client-1.apps.googleusercontent.com',
      redirect_uri: 'https://app.example.com/google-callback',
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/calendar.calendarlist.readonly https://www.googleapis.com/auth/calendar.events',
      access_type: 'offline',
      prompt: 'consent',
      state: 'state-123',
    });
  });

  it('exchanges a code as a form post and reads the tokens and granted scopes', async () => {
    const { calls, exchange } = recorder([
      {
        status: 200,
        body: JSON.stringify({
          access_token: 'ya29.a0',
          expires_in: 3599,
          refresh_token: '1//0g-refresh',
          scope: `${GOOGLE_CALENDAR_SCOPE} openid`,
          token_type: 'Bearer',
        }),
      },
    ]);
    const tokens = await new GoogleCalendarClient(config, exchange).exchangeCode('4/0Ab-code');
    expect(tokens).toEqual({ accessToken: 'ya29.a0', refreshToken: '1//0g-refresh', expiresIn: 3599, scopes: [GOOGLE_CALENDAR_SCOPE, 'openid'] });
    expect(calls[0].url).toBe('https://oauth2.googleapis.com/token');
    expect(calls[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(calls[0].body))).toEqual({
      client_id: 'client-1.apps.googleusercontent.com',
      client_secret: 'GOCSPX-secret',
      code: '4/0Ab-code',
      redirect_uri: 'https://app.example.com/google-callback',
      grant_type: 'authorization_code',
    });
  });

  it("names Google's error for a used code and refreshes with the refresh token", async () => {
    const { calls, exchange } = recorder([{ status: 400, body: JSON.stringify({ error: 'invalid_grant', error_description: 'Bad Request' }) }]);
    const client = new GoogleCalendarClient(config, exchange);
    await expect(client.exchangeCode('used')).rejects.toEqual(new GoogleError(400, 'invalid_grant'));
    const { exchange: ex2, calls: calls2 } = recorder([
      { status: 200, body: JSON.stringify({ access_token: 'ya29.new', expires_in: 3599, scope: GOOGLE_CALENDAR_SCOPE, token_type: 'Bearer' }) },
    ]);
    const refreshed = await new GoogleCalendarClient(config, ex2).refresh('1//0g-refresh');
    expect(refreshed).toMatchObject({ accessToken: 'ya29.new', refreshToken: null });
    expect(Object.fromEntries(new URLSearchParams(calls2[0].body))).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: '1//0g-refresh',
      client_secret: 'GOCSPX-secret',
    });
    expect(calls).toHaveLength(1);
  });

  it("lists every page of the calendar list with the bearer token, preferring the user's own name for a calendar", async () => {
    const { calls, exchange } = recorder([
      {
        status: 200,
        body: JSON.stringify({
          kind: 'calendar#calendarList',
          nextPageToken: 'p2',
          items: [
            {
              kind: 'calendar#calendarListEntry',
              id: 'dr@example.com',
              summary: 'dr@example.com',
              primary: true,
              accessRole: 'owner',
              backgroundColor: '#9fe1e7',
              timeZone: 'America/Chicago',
            },
          ],
        }),
      },
      {
        status: 200,
        body: JSON.stringify({
          kind: 'calendar#calendarList',
          items: [
            { id: 'en.usa#holiday@group.v.calendar.google.com', summary: 'Holidays in United States', summaryOverride: 'Holidays', accessRole: 'reader' },
          ],
        }),
      },
    ]);
    const list = await new GoogleCalendarClient(config, exchange).calendarList('ya29.a0');
    expect(list.map((c) => [c.summary, c.primary, c.accessRole])).toEqual([
      ['dr@example.com', true, 'owner'],
      ['Holidays', false, 'reader'],
    ]);
    expect(calls[0].url).toBe('https://www.googleapis.com/calendar/v3/users/me/calendarList?maxResults=250');
    expect(calls[0].headers.authorization).toBe('Bearer ya29.a0');
    expect(new URL(calls[1].url).searchParams.get('pageToken')).toBe('p2');
  });

  it("reads an API error in Google's JSON error shape", async () => {
    const { exchange } = recorder([
      { status: 401, body: JSON.stringify({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }) },
    ]);
    await expect(new GoogleCalendarClient(config, exchange).calendarList('expired')).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  const event = {
    summary: 'Appointment: Follow-up',
    location: 'Virtual visit',
    description: 'Booked in Tidewell. Open Tidewell for the details.',
    start: { dateTime: '2027-03-03T15:00:00.000Z', timeZone: 'America/Chicago' },
    end: { dateTime: '2027-03-03T15:30:00.000Z', timeZone: 'America/Chicago' },
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=4'],
  };

  it("inserts an event into the chosen calendar under the client's id as Google's events.insert documents", async () => {
    const { calls, exchange } = recorder([{ status: 200, body: JSON.stringify({ kind: 'calendar#event', id: 'c5p6aor', status: 'confirmed', ...event }) }]);
    expect(await new GoogleCalendarClient(config, exchange).insertEvent('ya29.a0', 'on-call@group.calendar.google.com', 'c5p6aor', event)).toEqual({
      id: 'c5p6aor',
    });
    expect(calls[0]).toMatchObject({ method: 'POST', url: 'https://www.googleapis.com/calendar/v3/calendars/on-call%40group.calendar.google.com/events' });
    expect(calls[0].headers).toMatchObject({ authorization: 'Bearer ya29.a0', 'content-type': 'application/json' });
    expect(JSON.parse(calls[0].body)).toEqual({ id: 'c5p6aor', ...event });
  });

  it("reads Google's duplicate-id refusal as a 409 'duplicate', so a retried insert can patch instead", async () => {
    const refusal = {
      error: {
        code: 409,
        message: 'The requested identifier already exists.',
        errors: [{ domain: 'global', reason: 'duplicate', message: 'The requested identifier already exists.' }],
      },
    };
    const { exchange } = recorder([{ status: 409, body: JSON.stringify(refusal) }]);
    await expect(new GoogleCalendarClient(config, exchange).insertEvent('ya29.a0', 'primary', 'c5p6aor', event)).rejects.toEqual(
      new GoogleError(409, 'duplicate'),
    );
  });

  it("patches only the fields sent, at the event's own URL", async () => {
    const { calls, exchange } = recorder([{ status: 200, body: JSON.stringify({ kind: 'calendar#event', id: 'c5p6aor' }) }]);
    await new GoogleCalendarClient(config, exchange).patchEvent('ya29.a0', 'primary', 'c5p6aor', { summary: 'Appointment', recurrence: [] });
    expect(calls[0]).toMatchObject({ method: 'PATCH', url: 'https://www.googleapis.com/calendar/v3/calendars/primary/events/c5p6aor' });
    expect(JSON.parse(calls[0].body)).toEqual({ summary: 'Appointment', recurrence: [] });
    const { exchange: missing } = recorder([
      {
        status: 404,
        body: JSON.stringify({ error: { code: 404, message: 'Not Found', errors: [{ domain: 'global', reason: 'notFound', message: 'Not Found' }] } }),
      },
    ]);
    await expect(new GoogleCalendarClient(config, missing).patchEvent('ya29.a0', 'primary', 'gone1', {})).rejects.toMatchObject({
      status: 404,
      code: 'notFound',
    });
  });

  it('deletes with no body; an event Google already deleted (410) or never had (404) counts as gone', async () => {
    const { calls, exchange } = recorder([
      { status: 204, body: '' },
      {
        status: 410,
        body: JSON.stringify({
          error: { code: 410, message: 'Resource has been deleted', errors: [{ domain: 'global', reason: 'deleted', message: 'Resource has been deleted' }] },
        }),
      },
      { status: 404, body: '' },
      {
        status: 403,
        body: JSON.stringify({
          error: { code: 403, message: 'Forbidden', errors: [{ domain: 'global', reason: 'requiredAccessLevel', message: 'Forbidden' }] },
        }),
      },
    ]);
    const client = new GoogleCalendarClient(config, exchange);
    await client.deleteEvent('ya29.a0', 'primary', 'c5p6aor');
    await client.deleteEvent('ya29.a0', 'primary', 'c5p6aor');
    await client.deleteEvent('ya29.a0', 'primary', 'c5p6aor');
    await expect(client.deleteEvent('ya29.a0', 'primary', 'c5p6aor')).rejects.toEqual(new GoogleError(403, 'requiredAccessLevel'));
    expect(calls[0]).toMatchObject({ method: 'DELETE', url: 'https://www.googleapis.com/calendar/v3/calendars/primary/events/c5p6aor', body: '' });
    expect(calls[0].headers['content-type']).toBeUndefined();
  });
});
