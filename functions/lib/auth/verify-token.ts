import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

export interface TokenVerifierOptions {
  /** https://cognito-idp.<region>.amazonaws.com/<pool id> (the token's `iss`). */
  issuer: string;
  /** The web app client id, accepted in `aud` (ID tokens) or `client_id` (access tokens). */
  audience: string;
  /** Where the signing keys are read; by default the issuer's `/.well-known/jwks.json`. */
  jwksUrl?: string;
}

/**
 * The checks API Gateway's JWT authorizer makes: signature against the pool's JWKS, issuer,
 * audience (`aud` of ID tokens or `client_id` of access tokens) and expiry. The verified payload,
 * or null for anything else (no token, a bad one, another pool's or client's).
 */
export async function verifiedCognitoPayload(
  authorization: string | undefined,
  jwks: JWTVerifyGetKey,
  options: { issuer: string; audience: string },
): Promise<JWTPayload | null> {
  const token = authorization?.replace(/^Bearer\s+/i, '').trim();
  if (!token) return null;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, jwks, { issuer: options.issuer, requiredClaims: ['exp'] }));
  } catch {
    return null;
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
  return audiences.includes(options.audience) || payload.client_id === options.audience ? payload : null;
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

/**
 * The JWT authorizer's checks for entry points without one, such as a Lambda function URL. The
 * claims come back flattened the way the authorizer hands them to a Lambda.
 */
export function cognitoTokenVerifier(options: TokenVerifierOptions): (authorization: string | undefined) => Promise<Record<string, string> | null> {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl ?? `${options.issuer}/.well-known/jwks.json`));
  return async (authorization) => {
    const payload = await verifiedCognitoPayload(authorization, jwks, options);
    return payload ? flattenClaims(payload) : null;
  };
}

let fromEnv: { key: string; verify: ReturnType<typeof cognitoTokenVerifier> } | undefined;

/** The stack passes COGNITO_ISSUER and USER_POOL_CLIENT_ID; the local runtime also COGNITO_JWKS_URL. */
export function tokenVerifierFromEnv(env: NodeJS.ProcessEnv = process.env): ReturnType<typeof cognitoTokenVerifier> {
  const { COGNITO_ISSUER: issuer, USER_POOL_CLIENT_ID: audience, COGNITO_JWKS_URL: jwksUrl } = env;
  if (!issuer || !audience) throw new Error('COGNITO_ISSUER and USER_POOL_CLIENT_ID must be set');
  const key = `${issuer}|${audience}|${jwksUrl ?? ''}`;
  if (fromEnv?.key !== key) fromEnv = { key, verify: cognitoTokenVerifier({ issuer, audience, jwksUrl }) };
  return fromEnv.verify;
}
