/** The calendar and booking settings (spec shell §7.9), loaded with their first request. */
export const CALENDAR_ROUTE_KEYS = [
  'GET /v1/practices/calendar/appointment-types',
  'POST /v1/practices/calendar/appointment-types',
  'GET /v1/practices/calendar/appointment-types/{ident}',
  'PUT /v1/practices/calendar/appointment-types/{ident}',
  'DELETE /v1/practices/calendar/appointment-types/{ident}',
  'GET /v1/practices/calendar/booking-locations',
  'POST /v1/practices/calendar/booking-locations',
  'PUT /v1/practices/calendar/booking-locations/{ident}',
  'DELETE /v1/practices/calendar/booking-locations/{ident}',
  'GET /v1/practices/calendar/calendar-settings/users/{userId}',
  'PUT /v1/practices/calendar/calendar-settings/users/{userId}',
  'GET /v1/practices/calendar/settings',
  'PUT /v1/practices/calendar/settings',
  'GET /v1/practices/calendar/appointments',
  'POST /v1/practices/calendar/appointments',
  'GET /v1/practices/calendar/appointments/{appointmentId}',
  'PUT /v1/practices/calendar/appointments/{appointmentId}',
  'DELETE /v1/practices/calendar/appointments/{appointmentId}',
] as const;
export type CalendarRouteKey = (typeof CALENDAR_ROUTE_KEYS)[number];

export const PRACTICE_ROUTES = [
  'GET /v1/practices/metadata',
  'GET /v1/practices/users',
  'GET /v1/practices/users/me',
  'GET /v1/practices/feature-gates',
  'PUT /v1/practices/metadata',
  'PUT /v1/practices/users/{userId}',
  'GET /v1/practices/{practiceId}/users/{userId}',
  'PUT /v1/practices/feature-gates',
  'GET /v1/practices/users/me/dashboard',
  'PUT /v1/practices/users/me/dashboard',
  'POST /v1/practices/users/me/sign-out',
  'GET /v1/practices/partner-apps',
  'PUT /v1/practices/partner-apps',
  'GET /v2/practices/sso/dosespot',
  'POST /v1/practices/users/me/dosespot-sync',
  ...CALENDAR_ROUTE_KEYS,
] as const;
export type PracticeRouteKey = (typeof PRACTICE_ROUTES)[number];
