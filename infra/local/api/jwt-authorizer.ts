import { createRemoteJWKSet } from 'jose';
import { flattenClaims, verifiedCognitoPayload } from '../../../functions/lib/auth/verify-token.js';

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
    const payload = await verifiedCognitoPayload(authorization, jwks, options);
    if (!payload) return null;
    const scope = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : null;
    return { claims: flattenClaims(payload), scopes: scope };
  };
}
