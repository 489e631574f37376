/**
 * The security headers of the web origin, in one place for both servers of the app: the CloudFront
 * response headers policy (infra/lib/web.ts) and the local runtime's static server
 * (infra/local/web/static-web.ts). Plain data, no CDK, so the local server can import it.
 */

/** Where a deployed browser talks to: the HTTP API, Cognito, AppSync (https and wss) and presigned S3 URLs. */
export const DEPLOYED_AWS_ORIGINS = { https: 'https://*.amazonaws.com', wss: 'wss://*.amazonaws.com' } as const;

export interface CspOrigins {
  /** Origins the app fetches from (API, identity, presigned uploads) besides its own. */
  connect: readonly string[];
  /** Origins of images and recordings (presigned GETs) besides its own. */
  media: readonly string[];
  /** Partner apps' origins, the only others a note window may frame (practices/<slug>.json partnerApps, partnerOrigins). */
  frame?: readonly string[];
}

export const DEPLOYED_CSP_ORIGINS: CspOrigins = {
  connect: [DEPLOYED_AWS_ORIGINS.https, DEPLOYED_AWS_ORIGINS.wss],
  media: [DEPLOYED_AWS_ORIGINS.https],
};

/**
 * React and Amplify UI set inline style attributes, hence 'unsafe-inline' for styles only. The HEIC
 * viewer decodes with libheif's WebAssembly build, compiled from a wasm file of the app's own origin:
 * 'wasm-unsafe-eval' lets WebAssembly compile and nothing else; eval and new Function stay refused. The
 * realtime socket of the local runtime is on the app's own origin, which 'self' covers (ws: too).
 * Only the app itself may frame its pages: a partner's frame inside a note ends on the app's own
 * /note-result page (spec shell §2.5), which tells the note window to close. The app frames only
 * itself and the practice's partner origins (frame-src), fixed per deployment.
 */
export function contentSecurityPolicy(origins: CspOrigins = DEPLOYED_CSP_ORIGINS): string {
  const list = (extra: readonly string[]) => ["'self'", ...extra].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${list(['data:', 'blob:', ...origins.media])}`,
    "font-src 'self' data:",
    `connect-src ${list(origins.connect)}`,
    `media-src ${list(['blob:', ...origins.media])}`,
    `frame-src ${list(origins.frame ?? [])}`,
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

export const FRAME_OPTIONS = 'SAMEORIGIN';
export const REFERRER_POLICY = 'no-referrer';
export const HSTS = { maxAgeSeconds: 730 * 24 * 60 * 60, includeSubdomains: true, preload: true } as const;

/**
 * The headers as a browser receives them from CloudFront. HSTS only where the page is served
 * over https: browsers ignore it on plain http (the local runtime), and it must not pin
 * localhost to https for other local tools.
 */
export function securityHeaders(options: { csp?: string; https: boolean }): Record<string, string> {
  return {
    'content-security-policy': options.csp ?? CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': FRAME_OPTIONS,
    'referrer-policy': REFERRER_POLICY,
    'x-xss-protection': '1; mode=block',
    ...(options.https
      ? { 'strict-transport-security': `max-age=${HSTS.maxAgeSeconds}${HSTS.includeSubdomains ? '; includeSubDomains' : ''}${HSTS.preload ? '; preload' : ''}` }
      : {}),
  };
}
