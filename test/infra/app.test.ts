import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/lib/paths.js';

describe('the CDK app', () => {
  it('makes `cdk synth` with an unknown practice print the known configs, without a stack trace', async () => {
    const run = promisify(execFile)('npx', ['tsx', 'infra/bin/app.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ practice: 'harbour' }) },
    });
    const failure = (await run.then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    ))!;
    expect(failure.code).toBe(1);
    expect(
      failure.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('npm warn')),
    ).toEqual(['No practice config practices/harbour.json. Known practices: demo.']);
  });
});
