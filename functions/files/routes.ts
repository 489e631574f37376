/** Faxes are rare beside file reads: these load with their first request (fax-routes.ts). */
export const FAX_ROUTE_KEYS = [
  'GET /v1/faxes',
  'POST /v1/faxes',
  'GET /v1/faxes/fax-numbers',
  'PUT /v1/faxes/{ident}',
  'PUT /v1/faxes/{ident}/resend',
] as const;
export type FaxRouteKey = (typeof FAX_ROUTE_KEYS)[number];

export const FILE_ROUTES = ['POST /v1/s3/files', 'GET /v1/s3/files', 'DELETE /v1/s3/files', 'POST /v1/s3/folders', ...FAX_ROUTE_KEYS] as const;
export type FileRouteKey = (typeof FILE_ROUTES)[number];
