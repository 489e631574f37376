import { afterEach, describe, expect, it } from 'vitest';
import type { AuthContext } from './auth-context.js';
import { ENROLLED_CACHE_MS, forgetMfaEnrolment, mfaRequiredMessage, mfaSatisfied } from './mfa-enrolment.js';

const admin: AuthContext = { practiceId: 'prc_a', userId: 'admin-1', email: 'a@x.test', name: 'A', role: 'admin', groups: ['admin'] };
const provider: AuthContext = { ...admin, userId: 'prov-1', role: 'provider', groups: ['provider'] };

function pool(enrolled: Set<string>) {
  const asked: string[] = [];
  const lookup = async (userId: string) => {
    asked.push(userId);
    return enrolled.has(userId);
  };
  return { asked, lookup };
}
const outcome = (p: Promise<boolean>) => p.then((ok) => (ok ? 'allowed' : 'refused'));

afterEach(() => {
  delete process.env.MFA_POLICY;
  forgetMfaEnrolment(admin.userId);
});

describe('the admins MFA rule', () => {
  it('refuses an admin whose TOTP is not set up, asking the pool each time, and lets them in as soon as it is', async () => {
    process.env.MFA_POLICY = 'admins';
    const enrolled = new Set<string>();
    const { asked, lookup } = pool(enrolled);
    expect(await outcome(mfaSatisfied(admin, lookup, 0))).toBe('refused');
    expect(await outcome(mfaSatisfied(admin, lookup, 1))).toBe('refused');
    enrolled.add(admin.userId);
    expect(await outcome(mfaSatisfied(admin, lookup, 2))).toBe('allowed');
    expect(asked).toEqual(['admin-1', 'admin-1', 'admin-1']);
  });

  it('reuses a set-up for a minute, then asks again (a reset reaches every instance within that time)', async () => {
    process.env.MFA_POLICY = 'admins';
    const enrolled = new Set([admin.userId]);
    const { asked, lookup } = pool(enrolled);
    expect(await outcome(mfaSatisfied(admin, lookup, 0))).toBe('allowed');
    enrolled.clear();
    expect(await outcome(mfaSatisfied(admin, lookup, ENROLLED_CACHE_MS - 1))).toBe('allowed');
    expect(await outcome(mfaSatisfied(admin, lookup, ENROLLED_CACHE_MS))).toBe('refused');
    expect(asked).toHaveLength(2);
  });

  it('does not ask about providers under admins, nor about anyone when the practice is optional', async () => {
    const { asked, lookup } = pool(new Set());
    process.env.MFA_POLICY = 'admins';
    expect(await outcome(mfaSatisfied(provider, lookup))).toBe('allowed');
    process.env.MFA_POLICY = 'optional';
    expect(await outcome(mfaSatisfied(admin, lookup))).toBe('allowed');
    expect(asked).toEqual([]);
  });
});

describe('the required MFA rule', () => {
  afterEach(() => forgetMfaEnrolment(provider.userId));

  it('refuses anyone whose TOTP is not set up (a refresh token from before the switch, a reset), in its own words', async () => {
    process.env.MFA_POLICY = 'required';
    const enrolled = new Set([admin.userId]);
    const { asked, lookup } = pool(enrolled);
    expect(await outcome(mfaSatisfied(admin, lookup, 0))).toBe('allowed');
    expect(await outcome(mfaSatisfied(provider, lookup, 0))).toBe('refused');
    enrolled.add(provider.userId);
    expect(await outcome(mfaSatisfied(provider, lookup, 1))).toBe('allowed');
    expect(asked).toEqual(['admin-1', 'prov-1', 'prov-1']);
    expect(mfaRequiredMessage()).toBe('Set up two-step sign-in (an authenticator app) before you continue: this practice requires it.');
    process.env.MFA_POLICY = 'admins';
    expect(mfaRequiredMessage()).toMatch(/requires it for administrators\.$/);
  });
});
