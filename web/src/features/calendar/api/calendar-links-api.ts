import type { CalendarFeedStatus, GoogleLinkStatus } from '../../../../../shared/calendar/calendar-schema.js';
import { apiRequest } from '../../../lib/api-client.js';

const userPath = (userId: string, rest: string) => `/v1/calendar-settings/users/${encodeURIComponent(userId)}/${rest}`;

/** The user's ICS feed: whether one exists; its path only right after it is made. */
export function fetchCalendarFeed(userId: string, signal?: AbortSignal): Promise<CalendarFeedStatus> {
  return apiRequest<CalendarFeedStatus>({ path: userPath(userId, 'feed'), signal });
}

export function createCalendarFeed(userId: string): Promise<CalendarFeedStatus> {
  return apiRequest<CalendarFeedStatus>({ method: 'POST', path: userPath(userId, 'feed') });
}

export function revokeCalendarFeed(userId: string): Promise<CalendarFeedStatus> {
  return apiRequest<CalendarFeedStatus>({ method: 'DELETE', path: userPath(userId, 'feed') });
}

const google = (userId: string, rest = '') => userPath(userId, `link/google${rest}`);

export function fetchGoogleLink(userId: string, signal?: AbortSignal): Promise<GoogleLinkStatus> {
  return apiRequest<GoogleLinkStatus>({ path: google(userId, '/calendars'), signal });
}

/** Google's consent page to send the user to. */
export function startGoogleLink(userId: string): Promise<{ url: string }> {
  return apiRequest<{ url: string }>({ path: google(userId) });
}

/** Hands the server what Google's redirect carried. */
export function finishGoogleLink(userId: string, body: { code: string | null; scopes: string | null; state: string | null }): Promise<GoogleLinkStatus> {
  return apiRequest<GoogleLinkStatus>({ method: 'POST', path: google(userId, '/credentials'), body });
}

export function chooseGoogleCalendar(userId: string, calendarId: string): Promise<GoogleLinkStatus> {
  return apiRequest<GoogleLinkStatus>({ method: 'PUT', path: google(userId), body: { calendarId } });
}

export function unlinkGoogle(userId: string): Promise<GoogleLinkStatus> {
  return apiRequest<GoogleLinkStatus>({ method: 'DELETE', path: google(userId, '/credentials') });
}
