import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

export interface AuthorizerResult {
  claims: Record<string, string>;
  scopes: string[] | null;
}

export interface JwtAuthorizerOptions {
  issuer: string;
  /** The app client id: API Gateway accepts it in `aud` (ID tokens) or `client_id` (access tokens). */
  audience: string;
  jwksUrl: string;
}

/**
 * What API Gateway's HTTP API JWT authorizer does: signature against the pool's JWKS, issuer,
 * audience and expiry; null means 401 before any handler runs.
 */
export function jwtAuthorizer(options: JwtAuthorizerOptions): (authorization: string | undefined) => Promise<AuthorizerResult | null> {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl));
  return async (authorization) => {
    const token = authorization?.replace(/^Bearer\s+/i, '').trim();
    if (!token) return null;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, { issuer: options.issuer, requiredClaims: ['exp'] }));
    } catch {
      return null;
    }
    const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
    if (!audiences.includes(options.audience) && payload.client_id !== options.audience) return null;
    const scope = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : null;
    return { claims: flattenClaims(payload), scopes: scope };
  };
}

/** API Gateway hands claims to the Lambda as strings; arrays become "[a b]". */
export function flattenClaims(payload: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) => {
      if (Array.isArray(value)) return [name, `[${value.map(String).join(' ')}]`];
      if (value !== null && typeof value === 'object') return [name, JSON.stringify(value)];
      return [name, String(value)];
    }),
  );
}
