import { describe, expect, it } from 'vitest';
import { GOOGLE_CALENDAR_SCOPE, GoogleCalendarClient, GoogleError, parseGoogleConfig } from './google-calendar.js';
import type { HttpExchange } from './sms-carrier.js';

const config = parseGoogleConfig(JSON.stringify({ clientId: 'client-1.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret', redirectUri: 'https://app.example.com/google-callback' }))!;

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

  it('sends the browser to Google consent for offline calendar access with the state', () => {
    const url = new URL(new GoogleCalendarClient(config).consentUrl('state-123'));
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'client-1.apps.googleusercontent.com',
      redirect_uri: 'https://app.example.com/google-callback',
      response_type: 'code',
      scope: GOOGLE_CALENDAR_SCOPE,
      access_type: 'offline',
      prompt: 'consent',
      state: 'state-123',
    });
  });

  it('exchanges a code as a form post and reads the tokens and granted scopes', async () => {
    const { calls, exchange } = recorder([
      { status: 200, body: JSON.stringify({ access_token: 'ya29.a0', expires_in: 3599, refresh_token: '1//0g-refresh', scope: `${GOOGLE_CALENDAR_SCOPE} openid`, token_type: 'Bearer' }) },
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
    const { exchange: ex2, calls: calls2 } = recorder([{ status: 200, body: JSON.stringify({ access_token: 'ya29.new', expires_in: 3599, scope: GOOGLE_CALENDAR_SCOPE, token_type: 'Bearer' }) }]);
    const refreshed = await new GoogleCalendarClient(config, ex2).refresh('1//0g-refresh');
    expect(refreshed).toMatchObject({ accessToken: 'ya29.new', refreshToken: null });
    expect(Object.fromEntries(new URLSearchParams(calls2[0].body))).toMatchObject({ grant_type: 'refresh_token', refresh_token: '1//0g-refresh', client_secret: 'GOCSPX-secret' });
    expect(calls).toHaveLength(1);
  });

  it('lists every page of the calendar list with the bearer token, preferring the user\'s own name for a calendar', async () => {
    const { calls, exchange } = recorder([
      {
        status: 200,
        body: JSON.stringify({
          kind: 'calendar#calendarList',
          nextPageToken: 'p2',
          items: [{ kind: 'calendar#calendarListEntry', id: 'dr@example.com', summary: 'dr@example.com', primary: true, accessRole: 'owner', backgroundColor: '#9fe1e7', timeZone: 'America/Chicago' }],
        }),
      },
      { status: 200, body: JSON.stringify({ kind: 'calendar#calendarList', items: [{ id: 'en.usa#holiday@group.v.calendar.google.com', summary: 'Holidays in United States', summaryOverride: 'Holidays', accessRole: 'reader' }] }) },
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

  it('reads an API error in Google\'s JSON error shape', async () => {
    const { exchange } = recorder([{ status: 401, body: JSON.stringify({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }) }]);
    await expect(new GoogleCalendarClient(config, exchange).calendarList('expired')).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });
});
