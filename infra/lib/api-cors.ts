/**
 * The HTTP API's CORS preflight answer. The web app (CloudFront) and the API (execute-api) are
 * different origins, so a browser asks before each call whose headers are not CORS-safelisted;
 * the benches' production-like origins answer from the same values.
 */
export const API_CORS_ALLOW_HEADERS = ['authorization', 'content-type'];
export const API_CORS_MAX_AGE_SECONDS = 60 * 60;
