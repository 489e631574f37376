import {
  AssociateSoftwareTokenCommand,
  InitiateAuthCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { QueryCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalCognito } from '../../../infra/local/cognito/local-cognito.js';
import { cognitoAdminClient, ensurePoolUser, provisionUserPool } from '../../../infra/local/cognito/provision-pool.js';
import { startTestTable, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { totpCode } from '../../../test/support/totp.js';
import { MFA_REQUIRED_MESSAGE } from '../../lib/auth/mfa-enrolment.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { handler } from './handler.js';

/*
 * The deployed guard under the practice file's "mfa": "admins" (infra/lib/practice-stack.ts gives
 * it MFA_POLICY and AdminGetUser): the pool it asks is the embedded Cognito stand-in over HTTP,
 * through the same SDK client the Lambda uses.
 */
const PASSWORD = 'Guard-Test-Password-1!';
const saved = { MFA_POLICY: process.env.MFA_POLICY, USER_POOL_ID: process.env.USER_POOL_ID, COGNITO_ENDPOINT: process.env.COGNITO_ENDPOINT };
let table: { stop(): Promise<void> };
let server: Server;
let dataDir: string;
let cognito: ReturnType<typeof cognitoAdminClient>;
let clientId: string;
const subs: Record<'admin' | 'provider', string> = { admin: '', provider: '' };

const put = (item: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId: TEST_PRACTICE, ...item } }));
const claims = (sub: string) => ({
  sub,
  'custom:practiceId': TEST_PRACTICE,
  token_use: 'id',
  email: `${sub}@x.test`,
  auth_time: Math.floor(Date.now() / 1000),
});
const subscribe = (sub: string) => handler({ field: 'onCreateNotification', arguments: { practiceId: TEST_PRACTICE }, claims: claims(sub) });

beforeAll(async () => {
  table = await startTestTable();
  dataDir = mkdtempSync(join(tmpdir(), 'guard-mfa-'));
  const local = await createLocalCognito({ dataDir, issuerDomain: 'http://127.0.0.1', logLevel: 'silent' });
  server = createServer((req, res) => local.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cognito = cognitoAdminClient(endpoint, 'us-east-1');
  const pool = await provisionUserPool(cognito, {}, 'guard-mfa');
  clientId = pool.userPoolClientId;
  Object.assign(process.env, {
    MFA_POLICY: 'admins',
    USER_POOL_ID: pool.userPoolId,
    COGNITO_ENDPOINT: endpoint,
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
  });
  for (const role of ['admin', 'provider'] as const) {
    subs[role] = await ensurePoolUser(cognito, pool.userPoolId, {
      email: `${role}@guard.test`,
      firstName: 'Guard',
      lastName: role,
      group: role,
      practiceId: TEST_PRACTICE,
      password: PASSWORD,
    });
    await put({ sk: `USER#${subs[role]}`, userId: subs[role], permissionGroup: role, userStatus: 'active' });
  }
}, 60_000);

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await new Promise((resolve) => server?.close(resolve));
  await table?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('AppSync subscription guard under mfa "admins"', () => {
  it('refuses an admin whose TOTP is not set up, with the API’s words, and audits mfa_required; a provider subscribes', async () => {
    await expect(subscribe(subs.admin)).rejects.toThrow(MFA_REQUIRED_MESSAGE);
    await expect(subscribe(subs.provider)).resolves.toEqual({ allowed: true });
    const audit = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :a)',
        ExpressionAttributeValues: { ':p': TEST_PRACTICE, ':a': 'AUDIT#' },
      }),
    );
    expect((audit.Items ?? []).map((i) => [i.actorUserId, i.route, i.reason])).toEqual([[subs.admin, 'Subscription.onCreateNotification', 'mfa_required']]);
  });

  it('lets the admin subscribe once their TOTP is set up in the pool, without a new token', async () => {
    const signIn = await cognito.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: 'admin@guard.test', PASSWORD } }),
    );
    const accessToken = signIn.AuthenticationResult!.AccessToken!;
    const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    // A code from the middle of its 30 s step, so it is still valid when the pool checks it.
    const intoStep = Date.now() % 30_000;
    const code = totpCode(SecretCode!, intoStep > 25_000 ? Date.now() + 30_000 - intoStep : Date.now());
    await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: code, FriendlyDeviceName: 'phone' }));
    await cognito.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
    await expect(subscribe(subs.admin)).resolves.toEqual({ allowed: true });
  });
});
