import { randomUUID } from 'node:crypto';
import { PoolError, type SessionUser } from './pool-guard.js';

/**
 * Cognito's MFA_SETUP sign-in challenge, which cognito-local lacks: with the pool's MFA on, a user
 * without TOTP who signs in (password, or a new password) is not given tokens but the challenge;
 * AssociateSoftwareToken and VerifySoftwareToken then take its Session instead of an access token,
 * and RespondToAuthChallenge(MFA_SETUP) with the verified set-up's session issues the tokens.
 * The guard in front (pool-guard.ts) checks and moves the sessions along; this answers the calls.
 */

export const MFA_SETUP_MESSAGES = {
  /** What Cognito says when VerifySoftwareToken gets a code that does not match. */
  verifyMismatch: 'Code mismatch and fail enable Software Token MFA',
  notAssociated: 'User has not associated a software token',
} as const;

export interface MfaUser {
  Username: string;
  Password?: string;
  UserStatus?: string;
  Enabled?: boolean;
  UserMFASettingList?: string[];
  PreferredMfaSetting?: string;
  SoftwareTokenMfaConfiguration?: { Secret?: string; Verified?: boolean; FriendlyDeviceName?: string };
  MFAOptions?: unknown[];
}

export interface MfaPool {
  options: { Id: string; MfaConfiguration?: string };
  getUserByUsername(ctx: unknown, username: string): Promise<MfaUser | null>;
  saveUser(ctx: unknown, user: MfaUser): Promise<void>;
  listUserGroupMembership(ctx: unknown, user: MfaUser): Promise<string[]>;
  storeRefreshToken(ctx: unknown, token: string, user: MfaUser): Promise<void>;
}

export interface MfaSetupDeps {
  ctx: unknown;
  poolForClient(clientId: string): Promise<MfaPool>;
  appClient(clientId: string): Promise<unknown>;
  generateTokens(
    user: MfaUser,
    groups: string[],
    client: unknown,
    clientMetadata: unknown,
  ): Promise<{ AccessToken: string; IdToken: string; RefreshToken: string }>;
  totp: { generateSecret(): string; verify(secret: string, code: string): boolean };
  /** cognito-local's own answer for a call this does not take over. */
  router(target: string, input: Record<string, unknown>): Promise<unknown>;
}

type Input = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function hasTotp(user: MfaUser): boolean {
  return (user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA');
}

function setupChallenge(user: MfaUser) {
  return {
    ChallengeName: 'MFA_SETUP',
    ChallengeParameters: { MFAS_CAN_SETUP: JSON.stringify(['SOFTWARE_TOKEN_MFA']), USER_ID_FOR_SRP: user.Username },
    Session: randomUUID(),
  };
}

/** Cognito asks for the code when the pool's MFA is on, or optional and the user turned TOTP on. */
function asksForCode(pool: MfaPool, user: MfaUser): boolean {
  return hasTotp(user) && Boolean(user.SoftwareTokenMfaConfiguration?.Verified) && pool.options.MfaConfiguration !== 'OFF';
}

/** The SOFTWARE_TOKEN_MFA challenge as cognito-local's own InitiateAuth gives it. */
function codeChallenge(user: MfaUser) {
  const device = user.SoftwareTokenMfaConfiguration?.FriendlyDeviceName;
  return {
    ChallengeName: 'SOFTWARE_TOKEN_MFA',
    ChallengeParameters: { USER_ID_FOR_SRP: user.Username, ...(device ? { FRIENDLY_DEVICE_NAME: device } : {}) },
    Session: randomUUID(),
  };
}

export function mfaSetupTargets(deps: MfaSetupDeps): Record<string, (input: Input, session?: SessionUser) => Promise<unknown>> {
  const { ctx } = deps;
  const mustSetUp = (pool: MfaPool, user: MfaUser) => pool.options.MfaConfiguration === 'ON' && !hasTotp(user);

  async function sessionUser(session: SessionUser): Promise<{ pool: MfaPool; user: MfaUser }> {
    const pool = await deps.poolForClient(session.clientId);
    const user = await pool.getUserByUsername(ctx, session.username);
    if (!user) throw new PoolError('NotAuthorizedException', 'Invalid session for the user.');
    return { pool, user };
  }

  return {
    async InitiateAuth(input) {
      const params = (input.AuthParameters ?? {}) as Record<string, unknown>;
      if (str(input.AuthFlow) === 'USER_PASSWORD_AUTH') {
        const pool = await deps.poolForClient(str(input.ClientId));
        const user = await pool.getUserByUsername(ctx, str(params.USERNAME));
        // Only a sign-in cognito-local would let through (right password, confirmed user) is
        // turned into the set-up; every other case keeps its own answer.
        if (
          user &&
          user.UserStatus === 'CONFIRMED' &&
          user.Password === str(params.PASSWORD) &&
          mustSetUp(pool, user) &&
          (await deps.appClient(str(input.ClientId)))
        ) {
          return setupChallenge(user);
        }
      }
      return deps.router('InitiateAuth', input);
    },

    async RespondToAuthChallenge(input, session) {
      const clientId = str(input.ClientId);
      if (str(input.ChallengeName) === 'MFA_SETUP') {
        const { pool, user } = await sessionUser(session ?? { username: '', clientId });
        if (!hasTotp(user)) throw new PoolError('NotAuthorizedException', 'Invalid session for the user.');
        const client = await deps.appClient(clientId);
        const tokens = await deps.generateTokens(user, await pool.listUserGroupMembership(ctx, user), client, input.ClientMetadata);
        await pool.storeRefreshToken(ctx, tokens.RefreshToken, user);
        return { ChallengeParameters: {}, AuthenticationResult: tokens };
      }
      const output = (await deps.router('RespondToAuthChallenge', input)) as { AuthenticationResult?: { RefreshToken?: string } };
      const pool = await deps.poolForClient(clientId);
      const user = await pool.getUserByUsername(ctx, str((input.ChallengeResponses as Input | undefined)?.USERNAME));
      // A new password on a pool with MFA on leads to the set-up (or the code), as in Cognito.
      if (str(input.ChallengeName) === 'NEW_PASSWORD_REQUIRED' && user && mustSetUp(pool, user)) return setupChallenge(user);
      // cognito-local hands out tokens after a new password even to a user with TOTP (a temporary
      // password after an admin's reset); Cognito asks for the code first. Its tokens are dropped.
      if (str(input.ChallengeName) === 'NEW_PASSWORD_REQUIRED' && user && asksForCode(pool, user)) return codeChallenge(user);
      // cognito-local does not keep the refresh token of a challenge's sign-in, so it could not refresh.
      const refresh = output.AuthenticationResult?.RefreshToken;
      if (refresh && user) await pool.storeRefreshToken(ctx, refresh, user);
      return output;
    },

    async AssociateSoftwareToken(input, session) {
      if (!session) return deps.router('AssociateSoftwareToken', input);
      const { pool, user } = await sessionUser(session);
      const secret = deps.totp.generateSecret();
      await pool.saveUser(ctx, { ...user, SoftwareTokenMfaConfiguration: { Secret: secret, Verified: false } });
      return { SecretCode: secret };
    },

    async VerifySoftwareToken(input, session) {
      if (!session) {
        // Cognito answers a wrong code here with EnableSoftwareTokenMFAException, not CodeMismatch.
        return deps.router('VerifySoftwareToken', input).catch((error: unknown) => {
          if ((error as { code?: string }).code === 'CodeMismatchException')
            throw new PoolError('EnableSoftwareTokenMFAException', MFA_SETUP_MESSAGES.verifyMismatch);
          throw error;
        });
      }
      const { pool, user } = await sessionUser(session);
      const secret = user.SoftwareTokenMfaConfiguration?.Secret;
      if (!secret) throw new PoolError('InvalidParameterException', MFA_SETUP_MESSAGES.notAssociated);
      if (!deps.totp.verify(secret, str(input.UserCode))) throw new PoolError('EnableSoftwareTokenMFAException', MFA_SETUP_MESSAGES.verifyMismatch);
      const methods = new Set(user.UserMFASettingList ?? []);
      methods.add('SOFTWARE_TOKEN_MFA');
      await pool.saveUser(ctx, {
        ...user,
        SoftwareTokenMfaConfiguration: { Secret: secret, Verified: true, FriendlyDeviceName: str(input.FriendlyDeviceName) || undefined },
        UserMFASettingList: [...methods],
        PreferredMfaSetting: user.PreferredMfaSetting ?? 'SOFTWARE_TOKEN_MFA',
      });
      return { Status: 'SUCCESS' };
    },
  };
}
