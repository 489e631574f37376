import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

export interface CognitoTokenVerifierOptions {
  /** e.g. http://localhost:3000/cognito */
  cognitoEndpoint: string;
  userPoolId: string;
  clientId: string;
  /** The `iss` the pool writes into its tokens; default `${cognitoEndpoint}/${userPoolId}`. */
  issuer?: string;
  region: string;
  /** How long a user's practice lookup is reused, ms. */
  cacheMs?: number;
}

/**
 * Verifies id and access tokens of the local pool the way AppSync's Cognito authorizer does
 * (signature from the JWKS, issuer, client, expiry). Amplify's realtime client sends the ACCESS
 * token, which carries no custom attributes, so the user's custom:practiceId is looked up in the
 * pool and added to the claims; an id token carries it already.
 */
export function createCognitoTokenVerifier(opts: CognitoTokenVerifierOptions): (token: string) => Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(`${opts.cognitoEndpoint}/${opts.userPoolId}/.well-known/jwks.json`));
  const cognito = new CognitoIdentityProviderClient({
    endpoint: opts.cognitoEndpoint,
    region: opts.region,
    // The local pool does not check credentials; the SDK still wants some.
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const cacheMs = opts.cacheMs ?? 60_000;
  const practiceCache = new Map<string, { practiceId: string | undefined; at: number }>();

  async function practiceOf(username: string): Promise<string | undefined> {
    const cached = practiceCache.get(username);
    if (cached && Date.now() - cached.at < cacheMs) return cached.practiceId;
    const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: opts.userPoolId, Username: username }));
    const practiceId = user.UserAttributes?.find((a) => a.Name === 'custom:practiceId')?.Value;
    practiceCache.set(username, { practiceId, at: Date.now() });
    return practiceId;
  }

  return async (token) => {
    const { payload } = await jwtVerify(token, jwks, { issuer: opts.issuer ?? `${opts.cognitoEndpoint}/${opts.userPoolId}`, algorithms: ['RS256'] });
    if (payload.token_use === 'id') {
      const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (!audience.includes(opts.clientId)) throw new Error('Token audience mismatch');
      return payload;
    }
    if (payload.token_use === 'access') {
      if (payload.client_id !== opts.clientId) throw new Error('Token client mismatch');
      const username = typeof payload.username === 'string' ? payload.username : undefined;
      if (!username) throw new Error('Access token without username');
      return { ...payload, 'custom:practiceId': await practiceOf(username) };
    }
    throw new Error('Unsupported token_use');
  };
}
