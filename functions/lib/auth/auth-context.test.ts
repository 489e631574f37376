import { describe, expect, it } from 'vitest';
import { authContextFromClaims, roleFromGroups } from './auth-context.js';

const claims = (groups: string[], practiceId = 'prc_a') => ({
  sub: 'u-1',
  'custom:practiceId': practiceId,
  'cognito:groups': groups,
  given_name: 'Riley',
  family_name: 'Quinn',
  email: 'r@x.test',
});

describe('role resolution', () => {
  it('makes a super user an admin named Super User, whatever other group they hold', () => {
    expect(roleFromGroups(['super_user'])).toBe('admin');
    expect(roleFromGroups(['employee', 'super_user'])).toBe('admin');
    expect(authContextFromClaims(claims(['super_user']), 'prc_a')).toMatchObject({ role: 'admin', name: 'Super User', superUser: true });
  });
  it('keeps staff names and roles, and no_access refuses even a super user', () => {
    expect(authContextFromClaims(claims(['provider']), 'prc_a')).toMatchObject({ role: 'provider', name: 'Riley Quinn', superUser: false });
    expect(() => authContextFromClaims(claims(['super_user', 'no_access']), 'prc_a')).toThrow('does not have access');
  });
  it("takes the practice from the stack and refuses a super user's token of another practice", () => {
    expect(() => authContextFromClaims(claims(['super_user'], 'prc_b'), 'prc_a')).toThrow('does not belong to this practice');
  });
});
