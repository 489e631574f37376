import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { importJWK, jwtVerify, type JWK } from 'jose';
import { runtimeError } from '../runtime-log.js';
import { mfaSetupTargets, type MfaPool } from './mfa-setup.js';
import { createPoolGuard, PoolError, type PoolDirectory, type PoolUserView, type SessionUser } from './pool-guard.js';

const requireFromCognito = createRequire(createRequire(import.meta.url).resolve('cognito-local'));

type RouteFn = (ctx: { logger: unknown }, body: unknown) => Promise<unknown>;

export interface LocalCognito {
  /** Serves requests whose URL already has the /cognito prefix removed. */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export interface LocalCognitoOptions {
  dataDir: string;
  /** Tokens carry `${issuerDomain}/${userPoolId}` as iss; the public /cognito URL keeps it stable per port. */
  issuerDomain: string;
  logLevel: 'silent' | 'error' | 'info' | 'debug';
  /** Called when a user's tokens are all ended (sign-out everywhere, revocation). */
  onSignOut?: (user: PoolUserView) => Promise<void>;
}

interface StoredUser {
  Username: string;
  Enabled?: boolean;
  UserMFASettingList?: string[];
  PreferredMfaSetting?: string;
  SoftwareTokenMfaConfiguration?: { Verified?: boolean };
  Attributes?: { Name: string; Value?: string }[];
  RefreshTokens?: string[];
}
interface UserPoolService {
  getUserByUsername(ctx: unknown, username: string): Promise<StoredUser | null>;
  getUserByRefreshToken(ctx: unknown, token: string): Promise<StoredUser | null>;
  listGroups(ctx: unknown): Promise<{ GroupName?: string }[]>;
  saveUser(ctx: unknown, user: StoredUser): Promise<void>;
}
interface CognitoService {
  getUserPool(ctx: unknown, id: string): Promise<UserPoolService>;
  getUserPoolForClientId(ctx: unknown, clientId: string): Promise<UserPoolService>;
  getAppClient(ctx: unknown, clientId: string): Promise<unknown>;
}

function viewOf(user: StoredUser): PoolUserView {
  const attr = (name: string) => user.Attributes?.find((a) => a.Name === name)?.Value;
  return { username: user.Username, email: attr('email'), sub: attr('sub') ?? '', enabled: user.Enabled !== false, practiceId: attr('custom:practiceId') };
}

/** The guard's view of the pool, straight from cognito-local's services (same process, same store). */
function poolDirectory(cognito: CognitoService, ctx: unknown): PoolDirectory {
  const poolOf = (where: { clientId?: string; userPoolId?: string }) =>
    where.clientId ? cognito.getUserPoolForClientId(ctx, where.clientId) : cognito.getUserPool(ctx, where.userPoolId ?? '');
  return {
    async userByUsername(where, username) {
      const user = await (await poolOf(where)).getUserByUsername(ctx, username).catch(() => null);
      return user ? viewOf(user) : null;
    },
    async userByRefreshToken(clientId, token) {
      const pool = await cognito.getUserPoolForClientId(ctx, clientId).catch(() => null);
      const user = pool && token ? await pool.getUserByRefreshToken(ctx, token) : null;
      return user ? viewOf(user) : null;
    },
    async groupExists(userPoolId, name) {
      const pool = await cognito.getUserPool(ctx, userPoolId).catch(() => null);
      return Boolean(pool && (await pool.listGroups(ctx)).some((g) => g.GroupName === name));
    },
    async dropRefreshTokens(where, username) {
      const pool = await poolOf(where);
      const user = await pool.getUserByUsername(ctx, username);
      if (user) await pool.saveUser(ctx, { ...user, RefreshTokens: [] });
    },
  };
}

/**
 * cognito-local assembled in-process (its own CLI hard-codes a folder and port 9229): the same
 * services and router, with data under <dataDir>/cognito and our issuer domain.
 */
export async function createLocalCognito(options: LocalCognitoOptions): Promise<LocalCognito> {
  const configDirectory = join(options.dataDir, 'cognito');
  const dataDirectory = join(configDirectory, 'db');
  mkdirSync(dataDirectory, { recursive: true });

  // cognito-local still loads SDK v2 for its Lambda triggers, which we do not use.
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE ??= '1';
  const pino = requireFromCognito('pino') as (opts: { level: string }) => unknown;
  const services = requireFromCognito('./services/index.js');
  const { CognitoServiceFactoryImpl } = requireFromCognito('./services/cognitoService.js');
  const { CryptoService } = requireFromCognito('./services/crypto.js');
  const { StormDBDataStoreFactory } = requireFromCognito('./services/dataStore/stormDb.js');
  const { ConsoleMessageSender } = requireFromCognito('./services/messageDelivery/consoleMessageSender.js');
  const { MessageDeliveryService } = requireFromCognito('./services/messageDelivery/messageDelivery.js');
  const { otp } = requireFromCognito('./services/otp.js');
  const { JwtTokenGenerator } = requireFromCognito('./services/tokenGenerator.js');
  const { UserPoolServiceFactoryImpl } = requireFromCognito('./services/userPoolService.js');
  const { DefaultConfig } = requireFromCognito('./server/config.js');
  const { Router } = requireFromCognito('./server/Router.js');
  const { createServer } = requireFromCognito('./server/server.js');

  const logger = pino({ level: options.logLevel });
  const ctx = { logger };
  const config = {
    ...DefaultConfig,
    TokenConfig: { IssuerDomain: options.issuerDomain },
    ServerConfig: { ...DefaultConfig.ServerConfig, development: false },
  };
  const clock = new services.DateClock();
  const dataStoreFactory = new StormDBDataStoreFactory(dataDirectory);
  const cognitoServiceFactory = new CognitoServiceFactoryImpl(dataDirectory, dataStoreFactory, new UserPoolServiceFactoryImpl(clock, dataStoreFactory));
  const cognito = await cognitoServiceFactory.create(ctx, config.UserPoolDefaults);
  // No Lambda triggers are configured locally, so the Lambda client is never called.
  const noLambda = {};
  const triggers = new services.TriggersService(clock, cognito, new services.LambdaService({}, noLambda), new CryptoService(config.KMSConfig));
  const allServices = {
    clock,
    cognito,
    config,
    messages: new services.MessagesService(triggers, new MessageDeliveryService(new ConsoleMessageSender())),
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, triggers, config.TokenConfig),
    triggers,
  };
  const router = Router(allServices) as (target: string) => RouteFn;
  const app = createServer(router, logger, config.ServerConfig, allServices).application as (req: IncomingMessage, res: ServerResponse) => void;

  const publicKey = await importJWK((requireFromCognito('./keys/cognitoLocal.public.json') as { jwk: JWK }).jwk, 'RS256');
  const guard = createPoolGuard({
    directory: poolDirectory(cognito as CognitoService, ctx),
    async verifyAccessToken(token) {
      const { payload } = await jwtVerify(token, publicKey, { algorithms: ['RS256'] });
      if (payload.token_use !== 'access' || typeof payload.username !== 'string') throw new Error('Not an access token');
      return { username: payload.username, clientId: String(payload.client_id ?? '') };
    },
    onSignOut: options.onSignOut ?? (async () => undefined),
  });
  const pools = cognito as CognitoService;
  const { groupToResponseObject } = requireFromCognito('./targets/responses.js') as { groupToResponseObject: (poolId: string) => (g: unknown) => unknown };
  // cognito-local answers GlobalSignOut and AdminUserGlobalSignOut as unsupported (the guard does
  // their work), and AdminListGroupsForUser matches members by the name asked for, so a user asked
  // for by sub or email is in no group: answered here by the user's stored name. It lacks
  // AdminSetUserMFAPreference (an admin's MFA reset): the same change SetUserMFAPreference makes.
  const tokenGenerator = allServices.tokenGenerator as {
    generate(...args: unknown[]): Promise<{ AccessToken: string; IdToken: string; RefreshToken: string }>;
  };
  const totp = requireFromCognito('./services/totp.js') as { generateSecret(): string; verify(secret: string, code: string): boolean };
  const mfaSetup = mfaSetupTargets({
    ctx,
    poolForClient: (clientId) => pools.getUserPoolForClientId(ctx, clientId) as unknown as Promise<MfaPool>,
    appClient: (clientId) => pools.getAppClient(ctx, clientId),
    generateTokens: (user, groups, client, metadata) => tokenGenerator.generate(ctx, user, groups, client, metadata, 'Authentication'),
    totp,
    router: (target, input) => router(target)(ctx, input),
  });
  // cognito-local lacks Cognito's MFA_SETUP sign-in challenge (pool MFA on, no TOTP yet): mfa-setup.ts.
  const served: Record<string, (input: Record<string, unknown>, session?: SessionUser) => Promise<unknown>> = {
    ...mfaSetup,
    GlobalSignOut: async () => ({}),
    // cognito-local issues tokens for ADMIN_USER_PASSWORD_AUTH to any client and never asks for the
    // TOTP code or the set-up; Cognito takes the flow only from a client that allows it, and ours
    // (SRP, password and refresh, as infra/lib/auth.ts) does not.
    AdminInitiateAuth: async (input) => {
      const flow = String(input.AuthFlow ?? '');
      if (flow === 'ADMIN_USER_PASSWORD_AUTH' || flow === 'ADMIN_NO_SRP_AUTH') {
        const client = (await pools.getAppClient(ctx, String(input.ClientId ?? ''))) as { ExplicitAuthFlows?: string[] } | null;
        if (!client?.ExplicitAuthFlows?.includes('ALLOW_ADMIN_USER_PASSWORD_AUTH'))
          throw new PoolError('InvalidParameterException', 'Auth flow not enabled for this client');
      }
      return router('AdminInitiateAuth')(ctx, input);
    },
    AdminSetUserMFAPreference: async (input) => {
      const pool = await pools.getUserPool(ctx, String(input.UserPoolId ?? ''));
      const user = await pool.getUserByUsername(ctx, String(input.Username ?? ''));
      if (!user) throw new PoolError('UserNotFoundException', 'User does not exist.');
      const software = input.SoftwareTokenMfaSettings as { Enabled?: boolean; PreferredMfa?: boolean } | undefined;
      if (!software) return {};
      const methods = new Set(user.UserMFASettingList ?? []);
      if (software.Enabled) {
        if (!user.SoftwareTokenMfaConfiguration?.Verified) {
          throw new PoolError('InvalidParameterException', 'User has not verified software token MFA');
        }
        methods.add('SOFTWARE_TOKEN_MFA');
      } else methods.delete('SOFTWARE_TOKEN_MFA');
      const preferred =
        software.PreferredMfa && methods.has('SOFTWARE_TOKEN_MFA')
          ? 'SOFTWARE_TOKEN_MFA'
          : user.PreferredMfaSetting === 'SOFTWARE_TOKEN_MFA'
            ? undefined
            : user.PreferredMfaSetting;
      await pool.saveUser(ctx, { ...user, UserMFASettingList: [...methods], PreferredMfaSetting: preferred });
      return {};
    },
    AdminUserGlobalSignOut: async () => ({}),
    AdminListGroupsForUser: async (input) => {
      const poolId = String(input.UserPoolId ?? '');
      const pool = await pools.getUserPool(ctx, poolId);
      const user = await pool.getUserByUsername(ctx, String(input.Username ?? ''));
      if (!user) throw new PoolError('UserNotFoundException', 'User does not exist.');
      const groups = (await pool.listGroups(ctx)) as { GroupName?: string; members?: string[] }[];
      return { Groups: groups.filter((g) => g.members?.includes(user.Username)).map(groupToResponseObject(poolId)) };
    },
  };
  const call = (target: string, input: Record<string, unknown>) =>
    guard(target, input, (checked, session) => (served[target] ? served[target](checked, session) : router(target)(ctx, checked)));

  return {
    handle(req, res) {
      const target = String(req.headers['x-amz-target'] ?? '').split('.')[1];
      if (req.method === 'POST' && target === 'GetTokensFromRefreshToken') {
        refreshThroughInitiateAuth(call, req, res);
        return;
      }
      if (req.method === 'POST' && target) {
        guardedCall(call, target, req, res);
        return;
      }
      const openId = /^\/([^/]+)\/\.well-known\/openid-configuration$/.exec(req.url ?? '');
      if (req.method === 'GET' && openId) {
        const issuer = `${options.issuerDomain}/${openId[1]}`;
        sendJson(res, 200, { issuer, jwks_uri: `${issuer}/.well-known/jwks.json`, id_token_signing_alg_values_supported: ['RS256'] }, 'application/json');
        return;
      }
      app(req, res);
    },
  };
}

type GuardedCall = (target: string, input: Record<string, unknown>) => Promise<unknown>;

function readJson(req: IncomingMessage, res: ServerResponse, then: (input: Record<string, unknown>) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let input: Record<string, unknown>;
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      input = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      sendJson(res, 400, { __type: 'SerializationException', message: 'Malformed request body' });
      return;
    }
    then(input);
  });
}

/** Dates as epoch seconds, the way cognito-local's own server writes them. */
function epochDates(this: Record<string, unknown>, key: string, value: unknown): unknown {
  return this[key] instanceof Date ? Math.floor((this[key] as Date).getTime() / 1000) : value;
}

function sendPoolError(res: ServerResponse, error: unknown, target: string): void {
  const e = error as { code?: string; message?: string };
  if (error instanceof PoolError || typeof e?.code === 'string') {
    sendJson(res, 400, { __type: e.code, message: e.message });
    return;
  }
  runtimeError(`Local user pool: ${target} failed`, error);
  sendJson(res, 500, { __type: 'InternalErrorException', message: 'Internal error' });
}

/** Every pool API call goes through the guard, then cognito-local's router, answered as Cognito does. */
function guardedCall(call: GuardedCall, target: string, req: IncomingMessage, res: ServerResponse): void {
  readJson(req, res, (input) => {
    call(target, input).then(
      (output) => {
        const text = JSON.stringify(output ?? {}, epochDates);
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1', 'content-length': Buffer.byteLength(text), 'access-control-allow-origin': '*' });
        res.end(text);
      },
      (error: unknown) => sendPoolError(res, error, target),
    );
  });
}

/**
 * Amplify 6 refreshes with GetTokensFromRefreshToken, which cognito-local lacks; the same result
 * comes from InitiateAuth with REFRESH_TOKEN_AUTH.
 */
function refreshThroughInitiateAuth(call: GuardedCall, req: IncomingMessage, res: ServerResponse): void {
  readJson(req, res, (raw) => {
    const input = raw as { RefreshToken?: string; ClientId?: string; ClientMetadata?: Record<string, string> };
    call('InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: input.ClientId,
      AuthParameters: { REFRESH_TOKEN: input.RefreshToken },
      ClientMetadata: input.ClientMetadata,
    }).then(
      (output) => {
        const result = (output as { AuthenticationResult?: Record<string, unknown> }).AuthenticationResult ?? {};
        sendJson(res, 200, {
          AuthenticationResult: {
            ...result,
            ExpiresIn: result.ExpiresIn ?? secondsLeft(result.AccessToken),
            TokenType: result.TokenType ?? 'Bearer',
            RefreshToken: result.RefreshToken ?? input.RefreshToken,
          },
        });
      },
      (error: unknown) => sendPoolError(res, error, 'GetTokensFromRefreshToken'),
    );
  });
}

function secondsLeft(token: unknown): number | undefined {
  if (typeof token !== 'string') return undefined;
  try {
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number };
    return exp ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : undefined;
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, type = 'application/x-amz-json-1.1'): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), 'access-control-allow-origin': '*' });
  res.end(text);
}
