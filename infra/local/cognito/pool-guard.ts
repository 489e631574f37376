/**
 * What the deployed user pool refuses and cognito-local cannot be configured to refuse, applied in
 * front of it (infra/lib/auth.ts is the model): no self sign-up, users write only their names,
 * custom:practiceId never changes, one answer for unknown users and wrong passwords, Cognito's
 * lockout after repeated failures, disabled users cannot sign in, and sign-out everywhere
 * (GlobalSignOut, AdminUserGlobalSignOut, RevokeToken) ends the tokens the API accepts, and a
 * sign-in challenge (the TOTP code) is answered only with the session the password step handed
 * out, for the user it named, once and within Cognito's three minutes. The MFA_SETUP challenge
 * (pool MFA on, no TOTP yet) moves its session along AssociateSoftwareToken and
 * VerifySoftwareToken, each handing out the next one, and only a verified set-up's session signs in.
 */
import { randomUUID } from 'node:crypto';

export class PoolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const POOL_MESSAGES = {
  signUp: 'SignUp is not permitted for this user pool',
  unauthorizedAttribute: 'A client attempted to write unauthorized attribute',
  immutableAttribute: 'Invalid user attributes: custom:practiceId: Attribute cannot be updated. (changing an immutable attribute)',
  badCredentials: 'Incorrect username or password.',
  lockedOut: 'Password attempts exceeded',
  disabled: 'User is disabled.',
  groupExists: 'A group with the name already exists.',
  badSession: 'Invalid session for the user.',
} as const;

/** Cognito's sign-in session lasts three minutes. */
export const CHALLENGE_SESSION_MS = 3 * 60_000;

/** The web client's write attributes in the stack: a user may change their own names, nothing else. */
const USER_WRITABLE = new Set(['given_name', 'family_name']);
const IMMUTABLE = new Set(['custom:practiceId']);

/** Cognito: five failures, then a lockout from 1 s doubling per further failure, up to about 15 minutes. */
export const FREE_FAILURES = 5;
const MAX_LOCKOUT_MS = 15 * 60_000;

export interface PoolUserView {
  username: string;
  email: string | undefined;
  sub: string;
  enabled: boolean;
  practiceId: string | undefined;
}

/** The few pool operations the guard needs, over cognito-local's in-process services. */
export interface PoolDirectory {
  userByUsername(clientOrPool: { clientId?: string; userPoolId?: string }, username: string): Promise<PoolUserView | null>;
  userByRefreshToken(clientId: string, refreshToken: string): Promise<PoolUserView | null>;
  groupExists(userPoolId: string, groupName: string): Promise<boolean>;
  /** Ends the user's refresh tokens (what sign-out everywhere does to them). */
  dropRefreshTokens(clientOrPool: { clientId?: string; userPoolId?: string }, username: string): Promise<void>;
}

export interface PoolGuardOptions {
  directory: PoolDirectory;
  /** Verifies an access token of this pool; returns its username and client id or throws. */
  verifyAccessToken(token: string): Promise<{ username: string; clientId: string }>;
  /** Records that every token the user holds now is over (the API refuses them). */
  onSignOut(user: PoolUserView): Promise<void>;
  now?: () => number;
}

type Input = Record<string, unknown>;
/** The sign-in a checked challenge session belongs to, for the calls that take a Session instead of a token. */
export interface SessionUser {
  username: string;
  clientId: string;
}
type Next = (input: Input, session?: SessionUser) => Promise<unknown>;

/**
 * Where a challenge session is: `challenge` for one a sign-in step answered with a ChallengeName;
 * `associated` and `verified` for the MFA_SETUP sessions AssociateSoftwareToken and
 * VerifySoftwareToken hand out.
 */
type SessionStep = 'challenge' | 'associated' | 'verified';
interface HeldSession {
  username: string;
  clientId: string;
  challenge: string;
  step: SessionStep;
  until: number;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function createPoolGuard(opts: PoolGuardOptions) {
  const now = opts.now ?? Date.now;
  const failures = new Map<string, { count: number; lockedUntil: number }>();
  /** Login name → the second of its last sign-out everywhere. */
  const signedOutAt = new Map<string, number>();
  const second = () => Math.floor(now() / 1000);
  /**
   * Challenge sessions handed out → the user they belong to. cognito-local issues a random session
   * and never checks it, so without this a TOTP code alone (no password) would sign a user in.
   */
  const challengeSessions = new Map<string, HeldSession>();

  function hold(session: string, held: Omit<HeldSession, 'until'>): void {
    for (const [key, old] of challengeSessions) if (old.until < now()) challengeSessions.delete(key);
    challengeSessions.set(session, { ...held, until: now() + CHALLENGE_SESSION_MS });
  }

  async function rememberChallenge(
    output: unknown,
    clientOrPool: { clientId?: string; userPoolId?: string },
    username: string,
    clientId: string,
  ): Promise<unknown> {
    const { ChallengeName, Session } = (output ?? {}) as { ChallengeName?: string; Session?: string };
    if (ChallengeName && Session) {
      const user = await opts.directory.userByUsername(clientOrPool, username);
      hold(Session, { username: (user?.username ?? username).toLowerCase(), clientId, challenge: ChallengeName, step: 'challenge' });
    }
    return output;
  }

  async function answerChallenge(input: Input, next: Next): Promise<unknown> {
    const session = str(input.Session);
    const held = challengeSessions.get(session);
    challengeSessions.delete(session);
    const responses = (input.ChallengeResponses ?? {}) as Record<string, unknown>;
    const where = { clientId: str(input.ClientId) };
    const user = await opts.directory.userByUsername(where, str(responses.USERNAME));
    if (!held || held.until < now() || !user || held.username !== user.username.toLowerCase())
      throw new PoolError('NotAuthorizedException', POOL_MESSAGES.badSession);
    // An MFA_SETUP session signs in only once its set-up is verified; no other challenge takes it.
    const expected = held.challenge === 'MFA_SETUP' ? 'verified' : 'challenge';
    if (held.challenge !== str(input.ChallengeName) || held.step !== expected) throw new PoolError('NotAuthorizedException', POOL_MESSAGES.badSession);
    if (!user.enabled) throw new PoolError('NotAuthorizedException', POOL_MESSAGES.disabled);
    return rememberChallenge(await next(input, { username: held.username, clientId: held.clientId }), where, user.username, where.clientId);
  }

  /**
   * AssociateSoftwareToken or VerifySoftwareToken with the Session of an MFA_SETUP challenge (no
   * access token yet). Each success hands out the session of the next step; a wrong code keeps
   * the session, so the user can type the code again, as Amplify does with the same session.
   */
  async function setUpWithSession(target: 'AssociateSoftwareToken' | 'VerifySoftwareToken', input: Input, next: Next): Promise<unknown> {
    const session = str(input.Session);
    const held = challengeSessions.get(session);
    const from: SessionStep[] = target === 'AssociateSoftwareToken' ? ['challenge', 'associated'] : ['associated'];
    if (!held || held.until < now() || held.challenge !== 'MFA_SETUP' || !from.includes(held.step))
      throw new PoolError('NotAuthorizedException', POOL_MESSAGES.badSession);
    const user = await opts.directory.userByUsername({ clientId: held.clientId }, held.username);
    if (!user) throw new PoolError('NotAuthorizedException', POOL_MESSAGES.badSession);
    if (!user.enabled) throw new PoolError('NotAuthorizedException', POOL_MESSAGES.disabled);
    const output = (await next(input, { username: held.username, clientId: held.clientId })) as Record<string, unknown>;
    challengeSessions.delete(session);
    const nextSession = randomUUID();
    hold(nextSession, {
      username: held.username,
      clientId: held.clientId,
      challenge: 'MFA_SETUP',
      step: target === 'AssociateSoftwareToken' ? 'associated' : 'verified',
    });
    return { ...output, Session: nextSession };
  }

  async function signedOut(user: PoolUserView): Promise<void> {
    for (const name of [user.username, user.email]) if (name) signedOutAt.set(name.toLowerCase(), second());
    await opts.onSignOut(user);
  }

  /**
   * Tokens carry whole seconds, and a sign-out ends every token of its second; a sign-in in that
   * same second waits for the next one, so its tokens are not born signed out.
   */
  async function afterSignOutSecond(username: string): Promise<void> {
    const at = signedOutAt.get(username.toLowerCase());
    if (at === undefined || at < second()) return;
    await new Promise((resolve) => setTimeout(resolve, (at + 1) * 1000 - now() + 5));
  }

  function attributeNames(input: Input): string[] {
    const list = (input.UserAttributes ?? input.UserAttributeNames ?? []) as unknown[];
    return list.map((a) => (typeof a === 'string' ? a : str((a as { Name?: unknown })?.Name)));
  }

  async function passwordSignIn(username: string, clientOrPool: { clientId?: string; userPoolId?: string }, input: Input, next: Next) {
    const key = username.trim().toLowerCase();
    const state = failures.get(key);
    if (state && now() < state.lockedUntil) throw new PoolError('NotAuthorizedException', POOL_MESSAGES.lockedOut);
    await afterSignOutSecond(username);
    let output: unknown;
    try {
      output = await next(input);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'NotAuthorizedException' && code !== 'UserNotFoundException' && code !== 'InvalidPasswordException') throw error;
      const count = (state?.count ?? 0) + 1;
      const lockedUntil = count >= FREE_FAILURES ? now() + Math.min(1000 * 2 ** (count - FREE_FAILURES), MAX_LOCKOUT_MS) : 0;
      failures.set(key, { count, lockedUntil });
      throw new PoolError('NotAuthorizedException', POOL_MESSAGES.badCredentials);
    }
    failures.delete(key);
    const user = await opts.directory.userByUsername(clientOrPool, username);
    if (user && !user.enabled) throw new PoolError('NotAuthorizedException', POOL_MESSAGES.disabled);
    return rememberChallenge(output, clientOrPool, username, str(input.ClientId));
  }

  async function refreshSignIn(clientId: string, refreshToken: string, input: Input, next: Next) {
    const user = await opts.directory.userByRefreshToken(clientId, refreshToken);
    if (user && !user.enabled) throw new PoolError('NotAuthorizedException', POOL_MESSAGES.disabled);
    return next(input);
  }

  async function signOutEverywhere(clientOrPool: { clientId?: string; userPoolId?: string }, username: string) {
    const user = await opts.directory.userByUsername(clientOrPool, username);
    if (!user) throw new PoolError('UserNotFoundException', 'User does not exist.');
    await opts.directory.dropRefreshTokens(clientOrPool, username);
    await signedOut(user);
    return {};
  }

  /** Runs one pool API call (X-Amz-Target without its prefix) through the guard. */
  return async function run(target: string, input: Input, next: Next): Promise<unknown> {
    switch (target) {
      case 'SignUp':
        throw new PoolError('NotAuthorizedException', POOL_MESSAGES.signUp);
      case 'UpdateUserAttributes':
      case 'DeleteUserAttributes':
        if (attributeNames(input).some((name) => !USER_WRITABLE.has(name))) throw new PoolError('NotAuthorizedException', POOL_MESSAGES.unauthorizedAttribute);
        return next(input);
      case 'AdminUpdateUserAttributes':
      case 'AdminDeleteUserAttributes':
        if (attributeNames(input).some((name) => IMMUTABLE.has(name))) throw new PoolError('InvalidParameterException', POOL_MESSAGES.immutableAttribute);
        return next(input);
      case 'CreateGroup':
        // cognito-local replaces an existing group (and drops its members); Cognito refuses.
        if (await opts.directory.groupExists(str(input.UserPoolId), str(input.GroupName)))
          throw new PoolError('GroupExistsException', POOL_MESSAGES.groupExists);
        return next(input);
      case 'InitiateAuth':
      case 'AdminInitiateAuth': {
        const params = (input.AuthParameters ?? {}) as Record<string, unknown>;
        const flow = str(input.AuthFlow);
        const where = target === 'InitiateAuth' ? { clientId: str(input.ClientId) } : { userPoolId: str(input.UserPoolId) };
        if (flow === 'USER_PASSWORD_AUTH' || flow === 'ADMIN_USER_PASSWORD_AUTH' || flow === 'ADMIN_NO_SRP_AUTH')
          return passwordSignIn(str(params.USERNAME), where, input, next);
        if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') return refreshSignIn(str(input.ClientId), str(params.REFRESH_TOKEN), input, next);
        return next(input);
      }
      case 'RespondToAuthChallenge':
        return answerChallenge(input, next);
      case 'AssociateSoftwareToken':
      case 'VerifySoftwareToken':
        if (input.AccessToken === undefined && input.Session !== undefined) return setUpWithSession(target, input, next);
        return next(input);
      case 'GlobalSignOut': {
        let token: { username: string; clientId: string };
        try {
          token = await opts.verifyAccessToken(str(input.AccessToken));
        } catch {
          throw new PoolError('NotAuthorizedException', 'Invalid Access Token');
        }
        return signOutEverywhere({ clientId: token.clientId }, token.username);
      }
      case 'AdminUserGlobalSignOut':
        return signOutEverywhere({ userPoolId: str(input.UserPoolId) }, str(input.Username));
      case 'RevokeToken': {
        const user = await opts.directory.userByRefreshToken(str(input.ClientId), str(input.Token));
        const output = await next(input);
        if (user) await signedOut(user);
        return output;
      }
      default:
        return next(input);
    }
  };
}
