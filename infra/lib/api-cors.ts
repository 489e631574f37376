/**
 * The HTTP API's CORS preflight answer. The web app (CloudFront) and the API (execute-api) are
 * different origins, so a browser asks before each call whose headers are not CORS-safelisted;
 * the production-like origins of the e2e run and the Lighthouse bench answer from the same values.
 */
export const API_CORS_ALLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const API_CORS_ALLOW_HEADERS = ['authorization', 'content-type'];
export const API_CORS_MAX_AGE_SECONDS = 60 * 60;
