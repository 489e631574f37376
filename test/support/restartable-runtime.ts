import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { cognitoAdminClient } from '../../infra/local/cognito/provision-pool.js';
import { startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';

/**
 * A local runtime of a test file's own (own data folder, free port) that the test can stop and
 * start again on the same data, to prove what survives a restart.
 */
export function restartableRuntime(folderPrefix: string, practiceIdentity?: LocalRuntimeOptions['practiceIdentity']) {
  const dataDir = mkdtempSync(join(tmpdir(), folderPrefix));
  let running: LocalRuntime | undefined;
  return {
    async start(): Promise<LocalRuntime> {
      running = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true, practiceIdentity });
      return running;
    },
    async stop(): Promise<void> {
      const rt = running;
      running = undefined;
      await rt?.stop();
    },
    async dispose(): Promise<void> {
      await this.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A demo user's ID token from the runtime's identity pool. */
export async function signInAs(rt: LocalRuntime, email: string): Promise<string> {
  const { cognitoEndpoint, region, userPoolClientId } = rt.outputs;
  const out = await cognitoAdminClient(cognitoEndpoint, region).send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD } }),
  );
  return out.AuthenticationResult!.IdToken!;
}

/** One call of the runtime's API with a token; the status and the parsed JSON body. */
export async function callApi(rt: LocalRuntime, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${rt.outputs.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
