import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';

const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-restart-'));
let runtime: LocalRuntime | undefined;

afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function idToken(rt: LocalRuntime, email: string): Promise<string> {
  const { cognitoEndpoint, region, userPoolClientId } = rt.outputs;
  const client = new CognitoIdentityProviderClient({ endpoint: cognitoEndpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const out = await client.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD } }),
  );
  return out.AuthenticationResult!.IdToken!;
}

const groupsOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { 'cognito:groups'?: string[] })['cognito:groups'];

async function status(rt: LocalRuntime, token: string, method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${rt.outputs.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  await res.arrayBuffer();
  return res.status;
}

describe('finding 2: a restart on the same data folder keeps the pool', () => {
  it('keeps every user in their group, so roles and refusals are the same after the restart', async () => {
    runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true });
    expect(groupsOf(await idToken(runtime, 'admin@demo.tidewell.local'))).toEqual(['admin']);
    await runtime.stop();

    runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true });
    const admin = await idToken(runtime, 'admin@demo.tidewell.local');
    const noAccess = await idToken(runtime, 'noaccess@demo.tidewell.local');
    expect(groupsOf(admin)).toEqual(['admin']);
    expect(groupsOf(noAccess)).toEqual(['no_access']);
    expect(await status(runtime, admin, 'PUT', '/v1/practices/feature-gates', { flags: {} })).toBe(200);
    expect(await status(runtime, noAccess, 'GET', '/v1/patients')).toBe(403);
  });

  it('listens on 127.0.0.1 only unless HOST says otherwise', () => {
    expect((runtime!.httpServer.address() as AddressInfo).address).toBe('127.0.0.1');
  });
});
