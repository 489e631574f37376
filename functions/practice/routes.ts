/** The calendar and booking settings (spec shell §7.9), loaded with their first request. */
export const CALENDAR_ROUTE_KEYS = [
  'GET /v1/appointment-types',
  'POST /v1/appointment-types',
  'GET /v1/appointment-types/{ident}',
  'PUT /v1/appointment-types/{ident}',
  'DELETE /v1/appointment-types/{ident}',
  'GET /v1/booking-locations',
  'POST /v1/booking-locations',
  'PUT /v1/booking-locations/{ident}',
  'DELETE /v1/booking-locations/{ident}',
  'GET /v1/calendar-settings/users/{userId}',
  'PUT /v1/calendar-settings/users/{userId}',
  'GET /v1/practices/settings/calendar',
  'PUT /v1/practices/settings/calendar',
  'GET /v1/appointments',
  'POST /v1/appointments',
  'GET /v1/appointments/{appointmentId}',
  'PUT /v1/appointments/{appointmentId}',
  'DELETE /v1/appointments/{appointmentId}',
  'PUT /v1/appointments/{appointmentId}/arrival',
  'POST /v1/appointments/{appointmentId}/reminder',
  'GET /v1/appointments/upcoming',
  'GET /v1/calendar-settings/users/{userId}/feed',
  'POST /v1/calendar-settings/users/{userId}/feed',
  'DELETE /v1/calendar-settings/users/{userId}/feed',
  'GET /v1/calendar-settings/users/{userId}/link/google',
  'GET /v1/calendar-settings/users/{userId}/link/google/calendars',
  'PUT /v1/calendar-settings/users/{userId}/link/google',
  'POST /v1/calendar-settings/users/{userId}/link/google/credentials',
  'DELETE /v1/calendar-settings/users/{userId}/link/google/credentials',
] as const;
/** A provider's ICS feed: the token in the path is the credential (no user token), so it goes without the JWT authorizer. */
export const CALENDAR_FEED_ROUTES = ['GET /v1/calendar-feeds/{feedToken}'] as const;
export type CalendarRouteKey = (typeof CALENDAR_ROUTE_KEYS)[number];
/** Intake forms through IntakeQ (forms-routes.ts), loaded with the first request of any of them. */
export const FORM_ROUTE_KEYS = [
  'GET /v2/practices/forms',
  'POST /v2/practices/forms/send',
  'POST /v2/practices/forms/responses',
  'GET /v2/practices/sso/intakeq',
  'GET /v1/practices/form-mappings/{formId}',
  'POST /v1/practices/form-mappings',
] as const;
export type FormRouteKey = (typeof FORM_ROUTE_KEYS)[number];

/** Phone calls (call-routes.ts), loaded with the first request of any of them; click-to-call is under /v1/notes by the spec's path. */
export const CALL_ROUTE_KEYS = [
  'GET /v1/phone-calls',
  'GET /v1/phone-calls/phone-call-numbers',
  'GET /v1/phone-calls/count',
  'DELETE /v1/phone-calls/{id}',
  'POST /v1/phone-calls/{id}/assign/{userId}',
  'PUT /v1/phone-calls/{ident}',
  'POST /v1/notes/call',
] as const;
export type CallRouteKey = (typeof CALL_ROUTE_KEYS)[number];
/** The whole-practice FHIR export in Settings (fhir-bulk-routes.ts), loaded with the first request of any of them. */
export const FHIR_BULK_ROUTE_KEYS = [
  'GET /v1/practices/fhir-exports',
  'POST /v1/practices/fhir-exports',
  'GET /v1/practices/fhir-exports/{exportId}',
  'POST /v1/practices/fhir-exports/{exportId}/resume',
  'GET /v1/practices/fhir-exports/{exportId}/files/{path+}',
] as const;
/** A practice rebuilt from an export, one patient per request (fhir-import-routes.ts), loaded with the first request. */
export const FHIR_PRACTICE_IMPORT_ROUTE_KEYS = ['POST /v1/practices/fhir-imports/patients'] as const;

/** DoseSpot's sign-on and prescription sync (dosespot-routes.ts), loaded with the first request of any of them. */
export const DOSESPOT_ROUTE_KEYS = [
  'GET /v2/practices/sso/dosespot',
  'POST /v1/practices/users/me/dosespot-sync',
  'GET /v1/practices/users/me/dosespot-sync',
] as const;

export const PRACTICE_ROUTES = [
  'GET /v1/practices/metadata',
  'GET /v1/practices/users',
  'GET /v1/practices/users/me',
  'GET /v1/practices/feature-gates',
  'PUT /v1/practices/metadata',
  'PUT /v1/practices/users/{userId}',
  'DELETE /v1/practices/users/{userId}/mfa',
  'GET /v1/practices/{practiceId}/users/{userId}',
  'PUT /v1/practices/feature-gates',
  'GET /v1/practices/users/me/dashboard',
  'PUT /v1/practices/users/me/dashboard',
  'POST /v1/practices/users/me/sign-out',
  'GET /v1/practices/partner-apps',
  'PUT /v1/practices/partner-apps',
  ...DOSESPOT_ROUTE_KEYS,
  ...CALENDAR_ROUTE_KEYS,
  ...FORM_ROUTE_KEYS,
  'GET /v2/practices/contacts',
  'POST /v2/practices/contacts',
  'POST /v2/practices/contacts/{contactId}',
  'DELETE /v2/practices/contacts/{id}',
  ...CALL_ROUTE_KEYS,
  ...FHIR_BULK_ROUTE_KEYS,
  ...FHIR_PRACTICE_IMPORT_ROUTE_KEYS,
] as const;
/** The practice's contacts (contact-routes.ts), loaded with the first request of any of them. */
export const CONTACT_ROUTE_KEYS = [
  'GET /v2/practices/contacts',
  'POST /v2/practices/contacts',
  'POST /v2/practices/contacts/{contactId}',
  'DELETE /v2/practices/contacts/{id}',
] as const;
export type PracticeRouteKey = (typeof PRACTICE_ROUTES)[number];
