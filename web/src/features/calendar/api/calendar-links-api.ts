import { CalendarFeedStatus, GoogleConsentUrl, GoogleLinkStatus } from '../../../../../shared/calendar/calendar-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

const userPath = (userId: string, rest: string) => `/v1/calendar-settings/users/${encodeURIComponent(userId)}/${rest}`;

/** The user's ICS feed: whether one exists; its path only right after it is made. */
export function fetchCalendarFeed(userId: string, signal?: AbortSignal): Promise<CalendarFeedStatus> {
  return apiRequest({ path: userPath(userId, 'feed'), signal }, CalendarFeedStatus);
}

export function createCalendarFeed(userId: string): Promise<CalendarFeedStatus> {
  return apiRequest({ method: 'POST', path: userPath(userId, 'feed') }, CalendarFeedStatus);
}

export function revokeCalendarFeed(userId: string): Promise<CalendarFeedStatus> {
  return apiRequest({ method: 'DELETE', path: userPath(userId, 'feed') }, CalendarFeedStatus);
}

const google = (userId: string, rest = '') => userPath(userId, `link/google${rest}`);

export function fetchGoogleLink(userId: string, signal?: AbortSignal): Promise<GoogleLinkStatus> {
  return apiRequest({ path: google(userId, '/calendars'), signal }, GoogleLinkStatus);
}

/** Google's consent page to send the user to. */
export function startGoogleLink(userId: string): Promise<{ url: string }> {
  return apiRequest({ path: google(userId) }, GoogleConsentUrl);
}

/** Hands the server what Google's redirect carried. */
export function finishGoogleLink(userId: string, body: { code: string | null; scopes: string | null; state: string | null }): Promise<GoogleLinkStatus> {
  return apiRequest({ method: 'POST', path: google(userId, '/credentials'), body }, GoogleLinkStatus);
}

export function chooseGoogleCalendar(userId: string, calendarId: string): Promise<GoogleLinkStatus> {
  return apiRequest({ method: 'PUT', path: google(userId), body: { calendarId } }, GoogleLinkStatus);
}

export function unlinkGoogle(userId: string): Promise<GoogleLinkStatus> {
  return apiRequest({ method: 'DELETE', path: google(userId, '/credentials') }, GoogleLinkStatus);
}
