import { writeRefusalAudit } from '../audit/audit-repository.js';
import { log } from '../log.js';
import { AccessRefusedError, identityFromClaims } from './access-rule.js';
import { authorizeClaims } from './authorize.js';
import type { AuthContext } from './auth-context.js';
import { mfaAsked } from './mfa-rule.js';

/**
 * A realtime subscriber (AppSync subscription resolver deployed, the realtime server locally)
 * passes the same check as an API caller (the practice from the token, the user record, the
 * practice's MFA rule); a refused subscription is audited like a refused request.
 */
export async function authorizeSubscriber(
  claims: Record<string, unknown>,
  practiceId: string,
  opts: { route: string; audit: boolean; sourceIp?: string },
): Promise<AuthContext> {
  try {
    const auth = await authorizeClaims(claims, practiceId);
    // The API's MFA rule too: a caller without TOTP the rule asks about would otherwise hear every
    // notification while the API refuses their every request.
    if (mfaAsked(auth.role)) {
      const { mfaSatisfied, mfaRequiredMessage } = await import('./mfa-enrolment.js');
      if (!(await mfaSatisfied(auth))) throw new AccessRefusedError(403, mfaRequiredMessage(), 'mfa_required');
    }
    return auth;
  } catch (error) {
    const caller = identityFromClaims(claims);
    if (opts.audit && caller && error instanceof AccessRefusedError) {
      await writeRefusalAudit(
        practiceId,
        { userId: caller.sub, email: caller.email, superUser: caller.superUser, tokenPracticeId: caller.tokenPracticeId },
        { route: opts.route, reason: error.reason, status: error.statusCode, ...(opts.sourceIp ? { sourceIp: opts.sourceIp } : {}) },
      ).catch((auditError: unknown) => log.error('Refusal audit failed', { route: opts.route, error: (auditError as Error)?.name }));
    }
    throw error;
  }
}
