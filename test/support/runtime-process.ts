import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { MfaPolicy } from '../../infra/config/practice-config.js';
import type { LocalOutputs } from '../../infra/local/runtime.js';

type ChildOutputs = LocalOutputs & { table: RuntimeProcess['table'] };

export interface RuntimeProcess {
  outputs: LocalOutputs;
  /** Where its table is, to assert what it stored (audit entries). */
  table: { dynamodb: string; tableName: string; practiceId: string };
  stop(): Promise<void>;
}

/** Starts a freshly seeded demo practice in a child process (with `mfa`, that MFA rule) and answers once it serves. */
export async function startRuntimeProcess(dataDir: string, opts: { mfa?: MfaPolicy } = {}): Promise<RuntimeProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./runtime-child.ts', import.meta.url)), JSON.stringify({ dataDir, ...opts })],
    {
      env: { ...process.env, TIDEWELL_LOG: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4_000)));
  const outputs = await new Promise<ChildOutputs>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((l) => l.startsWith('RUNTIME_OUTPUTS '));
      if (line) resolve(JSON.parse(line.slice('RUNTIME_OUTPUTS '.length)) as ChildOutputs);
    });
    child.on('exit', (code) => reject(new Error(`The runtime process ended (${code}) before it served: ${errors}`)));
  });
  const { table, ...rest } = outputs;
  return {
    outputs: rest,
    table,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface RuntimeForFile {
  readonly runtime: RuntimeProcess;
  readonly outputs: LocalOutputs;
  /** The official Cognito client, pointed at this runtime's user pool. */
  cognito(): CognitoIdentityProviderClient;
}

/** One seeded practice for a whole test file (with `mfa`, that rule), in a data folder removed afterwards. */
export function runtimeForFile(name: string, opts: { mfa?: MfaPolicy } = {}): RuntimeForFile {
  let runtime: RuntimeProcess | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `tidewell-${name}-`));
    runtime = await startRuntimeProcess(dataDir, opts);
  }, 180_000);
  afterAll(async () => {
    await runtime?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  const started = (): RuntimeProcess => {
    if (!runtime) throw new Error(`The ${name} runtime has not started`);
    return runtime;
  };
  return {
    get runtime() {
      return started();
    },
    get outputs() {
      return started().outputs;
    },
    cognito() {
      const { cognitoEndpoint, region } = started().outputs;
      return new CognitoIdentityProviderClient({ endpoint: cognitoEndpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    },
  };
}
