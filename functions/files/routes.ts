export const FILE_ROUTES = ['POST /v1/s3/files', 'GET /v1/s3/files', 'DELETE /v1/s3/files', 'POST /v1/s3/folders'] as const;
export type FileRouteKey = (typeof FILE_ROUTES)[number];
