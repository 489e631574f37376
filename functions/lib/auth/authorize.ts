import { loadAccessRecord } from './access-record.js';
import type { AccessRecord, TokenIdentity } from './access-rule.js';
import { authContextFor, tokenIdentity, type AuthContext } from './auth-context.js';

const NO_RECORD: AccessRecord = { user: null, tokensValidAfter: null };

/**
 * The one access check every entry point applies (HTTP API middleware, realtime subscriptions):
 * the caller's record in this practice decides, cached per instance for at most 30 s.
 * Another practice's token is refused before any read of this practice's table.
 */
export async function authorizeIdentity(caller: TokenIdentity, practiceId: string): Promise<AuthContext> {
  const record = caller.tokenPracticeId === practiceId ? await loadAccessRecord(practiceId, caller.sub) : NO_RECORD;
  return authContextFor(caller, practiceId, record);
}

/** The same check from a verified token's claims. Throws AccessRefusedError (or 401 for claims naming nobody). */
export function authorizeClaims(claims: Record<string, unknown>, practiceId: string): Promise<AuthContext> {
  return authorizeIdentity(tokenIdentity(claims as Parameters<typeof tokenIdentity>[0]), practiceId);
}
