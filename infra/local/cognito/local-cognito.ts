import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

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

  return {
    handle(req, res) {
      const target = String(req.headers['x-amz-target'] ?? '').split('.')[1];
      if (req.method === 'POST' && target === 'GetTokensFromRefreshToken') {
        refreshThroughInitiateAuth(router, ctx, req, res);
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

/**
 * Amplify 6 refreshes with GetTokensFromRefreshToken, which cognito-local lacks; the same result
 * comes from InitiateAuth with REFRESH_TOKEN_AUTH.
 */
function refreshThroughInitiateAuth(router: (t: string) => RouteFn, ctx: { logger: unknown }, req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let input: { RefreshToken?: string; ClientId?: string; ClientMetadata?: Record<string, string> };
    try {
      input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      sendJson(res, 400, { __type: 'SerializationException', message: 'Malformed request body' });
      return;
    }
    router('InitiateAuth')(ctx, {
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
      (error: { code?: string; message?: string }) => {
        sendJson(res, 400, { __type: error.code ?? 'NotAuthorizedException', message: error.message ?? 'Refresh failed' });
      },
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
