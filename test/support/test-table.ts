import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { startLocalDynamo, type LocalDynamo } from '../../infra/local/dynamodb/local-dynamodb.js';
import { primeAccessRecord } from '../../functions/lib/auth/access-record.js';
import { resetDocumentClient } from '../../functions/lib/table/client.js';
import type { HttpEvent } from '../../functions/lib/http/group-handler.js';

export const TEST_PRACTICE = 'prc_unit_test';

/** An embedded table for repository and handler tests, with the env the handlers read. */
export async function startTestTable(): Promise<{ stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-unit-'));
  const tableName = 'tidewell-test';
  const dynamo: LocalDynamo = await startLocalDynamo({ dataDir, tableName, ttlSweepIntervalMs: 60_000, onError: () => undefined });
  process.env.TABLE_NAME = tableName;
  process.env.PRACTICE_ID = TEST_PRACTICE;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.TIDEWELL_LOG = 'silent';
  resetDocumentClient();
  return {
    async stop() {
      await dynamo.stop();
      resetDocumentClient();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestRequest {
  routeKey: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  groups?: string[];
  practiceId?: string;
  sub?: string;
}

/** An API Gateway HTTP API (payload v2) event as the JWT authorizer passes it. */
export function httpEvent(req: TestRequest): HttpEvent {
  const [method, path] = req.routeKey.split(' ');
  return {
    version: '2.0',
    routeKey: req.routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(req.query ?? {}).toString(),
    headers: { 'content-type': 'application/json' },
    queryStringParameters: req.query,
    pathParameters: req.pathParameters,
    body: req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body)),
    isBase64Encoded: false,
    requestContext: {
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      authorizer: {
        principalId: '',
        integrationLatency: 0,
        jwt: {
          claims: {
            sub: req.sub ?? 'user-1',
            email: 'tester@example.com',
            'custom:practiceId': req.practiceId ?? TEST_PRACTICE,
            'cognito:groups': `[${(req.groups ?? ['provider']).join(' ')}]`,
          },
          scopes: [],
        },
      },
    },
  } as unknown as HttpEvent;
}

type Handler = (event: HttpEvent, context: Context) => Promise<APIGatewayProxyResultV2>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function invoke(handler: Handler, req: TestRequest): Promise<{ status: number; body: any }> {
  // The caller is a practice user whose record grants the token's group (a super user has none).
  const groups = req.groups ?? ['provider'];
  const group = ['no_access', 'admin', 'provider'].find((g) => groups.includes(g)) ?? 'employee';
  const user = groups.includes('super_user') && !groups.includes('no_access') ? null : { permissionGroup: group, userStatus: 'active' };
  primeAccessRecord(req.practiceId ?? TEST_PRACTICE, req.sub ?? 'user-1', { user, tokensValidAfter: null });
  const out = (await handler(httpEvent(req), {} as Context)) as { statusCode: number; body?: string };
  return { status: out.statusCode, body: out.body ? JSON.parse(out.body) : undefined };
}
