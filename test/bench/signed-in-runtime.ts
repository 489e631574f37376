import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One API call as the signed-in demo provider: status and parsed JSON body. */
export type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Starts a seeded local runtime in a temporary folder, signs in as the demo provider, runs `use`
 * and always stops the runtime and removes its folder. The runtime loads lazily so a bench's
 * pure functions stay importable by unit tests without it.
 */
export async function withSignedInRuntime<T>(use: (call: Call, webUrl: string) => Promise<T>): Promise<T> {
  const { startLocalRuntime } = await import('../../infra/local/runtime.js');
  const { CognitoIdentityProviderClient, InitiateAuthCommand } = await import('@aws-sdk/client-cognito-identity-provider');
  const { DEMO_PASSWORD } = await import('../../infra/local/seed/demo-users.js');
  process.env.TIDEWELL_LOG ??= 'silent';
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-bench-'));
  const runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true });
  try {
    const cognito = new CognitoIdentityProviderClient({
      endpoint: runtime.outputs.cognitoEndpoint,
      region: runtime.outputs.region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const auth = await cognito.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: runtime.outputs.userPoolClientId,
        AuthParameters: { USERNAME: 'provider@demo.tidewell.local', PASSWORD: DEMO_PASSWORD },
      }),
    );
    const token = auth.AuthenticationResult!.IdToken!;
    const call: Call = async (method, path, body) => {
      const res = await fetch(`${runtime.outputs.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    };
    return await use(call, runtime.outputs.webUrl);
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
