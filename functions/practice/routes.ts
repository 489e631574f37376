/** Intake forms through IntakeQ (forms-routes.ts), loaded with the first request of any of them. */
export const FORM_ROUTE_KEYS = [
  'GET /v2/practices/forms',
  'POST /v2/practices/forms/send',
  'GET /v2/practices/sso/intakeq',
  'GET /v1/practices/form-mappings/{formId}',
  'POST /v1/practices/form-mappings',
] as const;
export type FormRouteKey = (typeof FORM_ROUTE_KEYS)[number];

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
  ...FORM_ROUTE_KEYS,
] as const;
export type PracticeRouteKey = (typeof PRACTICE_ROUTES)[number];
