import { MFA_REQUIRED_FOR_ALL_MESSAGE, MFA_REQUIRED_MESSAGE } from '../../../shared/permissions/mfa-messages.js';
import { mfaAsked } from './mfa-rule.js';

/**
 * The practice file's `mfa: "admins"` (docs/security.md): Cognito's MFA setting is pool-wide, so
 * the pool keeps MFA optional and every API request of an admin is refused until the pool says
 * their TOTP is set up. The pool is the one source asked: a flag of our own could disagree with it
 * (a user turning TOTP off with their own token, an admin's reset), and AdminGetUser answers for
 * what the next sign-in will demand.
 *
 * A positive answer is reused for ENROLLED_CACHE_MS per instance; a negative one is not kept, so
 * the request after a finished set-up goes through at once.
 */
export const ENROLLED_CACHE_MS = 60_000;
export { MFA_REQUIRED_FOR_ALL_MESSAGE, MFA_REQUIRED_MESSAGE };

/** The refusal's words for the practice's rule. */
export function mfaRequiredMessage(policy: string = mfaPolicy()): string {
  return policy === 'required' ? MFA_REQUIRED_FOR_ALL_MESSAGE : MFA_REQUIRED_MESSAGE;
}
const CACHE_LIMIT = 5_000;
const enrolledAt = new Map<string, number>();

export type MfaLookup = (userId: string) => Promise<boolean>;

/** Whether the pool has a verified TOTP for the user (loaded with the first admin request only). */
const poolLookup: MfaLookup = async (userId) => {
  const { totpEnrolled } = await import('./mfa-pool-lookup.js');
  return totpEnrolled(userId);
};

export function mfaPolicy(): string {
  return process.env.MFA_POLICY ?? 'optional';
}

/**
 * Whether a caller may go on under the practice's rule: false for a caller the rule asks about
 * (mfa-rule.ts) whose TOTP is not set up (the caller answers 403 mfa_required). Imports nothing the handler
 * loads at a cold start, so loading it lazily adds no shared chunk to the cold start.
 */
export async function mfaSatisfied(auth: { userId: string; role: string }, lookup: MfaLookup = poolLookup, now = Date.now()): Promise<boolean> {
  if (!mfaAsked(auth.role, mfaPolicy())) return true;
  const at = enrolledAt.get(auth.userId);
  if (at !== undefined && now - at < ENROLLED_CACHE_MS) return true;
  if (!(await lookup(auth.userId))) {
    enrolledAt.delete(auth.userId);
    return false;
  }
  if (enrolledAt.size >= CACHE_LIMIT) enrolledAt.delete(enrolledAt.keys().next().value as string);
  enrolledAt.set(auth.userId, now);
  return true;
}

/** Drops the instance's answer for a user (an admin reset their MFA). */
export function forgetMfaEnrolment(userId: string): void {
  enrolledAt.delete(userId);
}
