import { describe, expect, it } from 'vitest';
import type { AccessRecord } from './access-rule.js';
import { authContextFor, tokenIdentity } from './auth-context.js';

const claims = (groups: string[], practiceId = 'prc_a', authTime = 1_000) => ({
  sub: 'u-1',
  'custom:practiceId': practiceId,
  'cognito:groups': groups,
  given_name: 'Riley',
  family_name: 'Quinn',
  email: 'r@x.test',
  auth_time: String(authTime),
  iat: String(authTime + 30),
});

const record = (permissionGroup: string, userStatus = 'active', tokensValidAfter: number | null = null): AccessRecord => ({
  user: { permissionGroup, userStatus },
  tokensValidAfter,
});
const noRecord: AccessRecord = { user: null, tokensValidAfter: null };

const context = (c: ReturnType<typeof claims>, r: AccessRecord) => authContextFor(tokenIdentity(c), 'prc_a', r);
const refusal = (c: ReturnType<typeof claims>, r: AccessRecord) => {
  try {
    context(c, r);
  } catch (error) {
    const e = error as { statusCode: number; message: string; reason: string };
    return { status: e.statusCode, reason: e.reason, message: e.message };
  }
  throw new Error('not refused');
};

describe('who may act, and as what', () => {
  it("takes the role from the user record, not the token's groups", () => {
    expect(context(claims(['admin']), record('employee'))).toMatchObject({ role: 'employee', name: 'Riley Quinn' });
    expect(context(claims(['employee']), record('provider')).role).toBe('provider');
  });

  it('refuses a removed user (401) and a no_access user (403) whatever the token says', () => {
    expect(refusal(claims(['admin']), record('admin', 'deleted'))).toEqual({
      status: 401,
      reason: 'user_removed',
      message: 'Your account has been removed from this practice.',
    });
    expect(refusal(claims(['admin']), record('no_access'))).toEqual({
      status: 403,
      reason: 'no_access',
      message: 'Your account does not have access to this practice.',
    });
  });

  it('refuses a token signed in at or before the sign-out time, and accepts a later sign-in', () => {
    expect(refusal(claims(['admin'], 'prc_a', 1_000), record('admin', 'active', 1_000))).toMatchObject({ status: 401, reason: 'signed_out' });
    expect(context(claims(['admin'], 'prc_a', 1_001), record('admin', 'active', 1_000)).role).toBe('admin');
  });

  it('makes a super user without a record an admin named Super User; no_access still refuses them', () => {
    expect(context(claims(['super_user']), noRecord)).toMatchObject({ role: 'admin', name: 'Super User', superUser: true });
    expect(context(claims(['employee', 'super_user']), record('employee')).role).toBe('admin');
    expect(refusal(claims(['super_user', 'no_access']), noRecord).reason).toBe('no_access');
  });

  it('refuses a pool user without a record in the practice', () => {
    expect(refusal(claims(['admin']), noRecord)).toMatchObject({ status: 403, reason: 'not_a_member' });
  });

  it("takes the practice from the stack and refuses another practice's token, even a super user's", () => {
    expect(refusal(claims(['super_user'], 'prc_b'), noRecord)).toEqual({
      status: 403,
      reason: 'other_practice',
      message: 'This account does not belong to this practice.',
    });
  });

  it('reads groups flattened by API Gateway ("[a b]") and as arrays', () => {
    expect(tokenIdentity({ ...claims([]), 'cognito:groups': '[employee super_user]' }).superUser).toBe(true);
    expect(() => tokenIdentity({})).toThrow('Unauthorized');
  });
});
