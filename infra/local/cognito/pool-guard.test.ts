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
  const run = createPoolGuard({
    directory,
    verifyAccessToken: async () => ({ username: 'u-1', clientId: 'c' }),
    onSignOut: async () => undefined,
    now: () => clock.now,
  });
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

describe('sign-in challenges', () => {
  const other = { ...user, username: 'u-2', email: 'b@x.test', sub: 's-2' };
  const twoUsers: PoolDirectory = {
    ...directory,
    userByUsername: async (_where, name) => (name.toLowerCase() === 'b@x.test' || name === 'u-2' ? other : user),
  };

  function setUp(clock: { now: number }) {
    const run = createPoolGuard({
      directory: twoUsers,
      verifyAccessToken: async () => ({ username: 'u-1', clientId: 'c' }),
      onSignOut: async () => undefined,
      now: () => clock.now,
    });
    const passwordStep = (username: string) =>
      run('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: 'c', AuthParameters: { USERNAME: username, PASSWORD: 'right' } }, async () => ({
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: `session-of-${username}`,
      })) as Promise<{ Session: string }>;
    const answer = (session: string, username: string) =>
      run(
        'RespondToAuthChallenge',
        { ClientId: 'c', ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: session, ChallengeResponses: { USERNAME: username, SOFTWARE_TOKEN_MFA_CODE: '123456' } },
        async () => ({ AuthenticationResult: { AccessToken: 't' } }),
      ).then(
        () => 'signed in',
        (e: PoolError) => e.message,
      );
    return { passwordStep, answer };
  }

  it('accepts a TOTP answer only with the session the password step gave that user, once, within three minutes', async () => {
    const clock = { now: 1_000_000 };
    const { passwordStep, answer } = setUp(clock);
    expect(await answer('made-up', 'A@x.test')).toBe('Invalid session for the user.');
    const { Session } = await passwordStep('A@x.test');
    expect(await answer(Session, 'b@x.test')).toBe('Invalid session for the user.');
    const again = await passwordStep('A@x.test');
    expect(await answer(again.Session, 'a@x.test')).toBe('signed in');
    expect(await answer(again.Session, 'a@x.test')).toBe('Invalid session for the user.');
    const late = await passwordStep('A@x.test');
    clock.now += 3 * 60_000 + 1;
    expect(await answer(late.Session, 'A@x.test')).toBe('Invalid session for the user.');
  });
});
