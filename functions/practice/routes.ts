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
  'GET /v2/practices/contacts',
  'POST /v2/practices/contacts',
  'POST /v2/practices/contacts/{contactId}',
  'DELETE /v2/practices/contacts/{id}',
] as const;
/** The practice's contacts (contact-routes.ts), loaded with the first request of any of them. */
export const CONTACT_ROUTE_KEYS = ['GET /v2/practices/contacts', 'POST /v2/practices/contacts', 'POST /v2/practices/contacts/{contactId}', 'DELETE /v2/practices/contacts/{id}'] as const;
export type PracticeRouteKey = (typeof PRACTICE_ROUTES)[number];
