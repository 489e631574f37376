/**
 * How long the pool's tokens live, deployed (infra/lib/auth.ts) and in the local pool alike.
 * ID and access tokens are bearer credentials the API accepts until they expire, so they are kept
 * short; the web refreshes them silently with the refresh token.
 */
export const TOKEN_LIFETIMES = {
  idTokenMinutes: 60,
  accessTokenMinutes: 60,
  refreshTokenDays: 1,
} as const;
