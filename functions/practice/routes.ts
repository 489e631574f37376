export const PRACTICE_ROUTES = [
  'GET /v1/practices/metadata',
  'GET /v1/practices/users',
  'GET /v1/practices/users/me',
  'GET /v1/practices/feature-gates',
] as const;
export type PracticeRouteKey = (typeof PRACTICE_ROUTES)[number];
