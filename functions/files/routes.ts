export const FILE_ROUTES = ['POST /v1/s3/files', 'GET /v1/s3/files'] as const;
export type FileRouteKey = (typeof FILE_ROUTES)[number];
