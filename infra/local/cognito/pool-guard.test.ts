import { describe, expect, it } from 'vitest';
import { createPoolGuard, PoolError, type PoolDirectory } from './pool-guard.js';

const user = { username: 'u-1', email: 'a@x.test', sub: 's-1', enabled: true, practiceId: 'prc_a' };
const directory: PoolDirectory = {
  userByUsername: async () => user,
  userByRefreshToken: async () => user,
  groupExists: async () => false,
  dropRefreshTokens: async () => undefined,
};

function guardAt(clock: { now: number }) {
  const run = createPoolGuard({ directory, verifyAccessToken: async () => ({ username: 'u-1', clientId: 'c' }), onSignOut: async () => undefined, now: () => clock.now });
  const attempt = (password: string) =>
    run('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: 'c', AuthParameters: { USERNAME: 'A@x.test', PASSWORD: password } }, async (input) => {
      if ((input.AuthParameters as { PASSWORD: string }).PASSWORD !== 'right') throw Object.assign(new Error('bad'), { code: 'NotAuthorizedException' });
      return { AuthenticationResult: {} };
    }).then(
      () => 'ok',
      (e: PoolError) => e.message,
    );
  return attempt;
}

describe('sign-in lockout', () => {
  it('allows five failures, then locks for 1 s, 2 s, 4 s…; attempts while locked do not extend it; a success resets', async () => {
    const clock = { now: 1_000_000 };
    const attempt = guardAt(clock);
    for (let i = 0; i < 4; i++) expect(await attempt('wrong')).toBe('Incorrect username or password.');
    expect(await attempt('wrong')).toBe('Incorrect username or password.');
    expect(await attempt('right')).toBe('Password attempts exceeded');
    clock.now += 999;
    expect(await attempt('right')).toBe('Password attempts exceeded');
    clock.now += 1;
    expect(await attempt('wrong')).toBe('Incorrect username or password.');
    clock.now += 1_999;
    expect(await attempt('right')).toBe('Password attempts exceeded');
    clock.now += 1;
    expect(await attempt('right')).toBe('ok');
    expect(await attempt('wrong')).toBe('Incorrect username or password.');
    expect(await attempt('right')).toBe('ok');
  });
});
