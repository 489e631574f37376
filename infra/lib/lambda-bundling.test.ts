import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from './paths.js';
import { cdkBundling, esbuildOptions, LAMBDA_ESBUILD, sdkPackageVersionOnly } from './lambda-bundling.js';

describe('Lambda bundling options', () => {
  it('gives the stack and the budget tooling the same esbuild options', () => {
    const api = esbuildOptions('/repo/functions/notes/handler.ts', '/out');
    const cdk = cdkBundling('/repo/functions/notes/handler.ts');
    expect(cdk.target).toBe(api.target);
    expect(cdk.mainFields).toEqual(api.mainFields);
    expect(cdk.banner).toBe((api.banner as { js: string }).js);
    expect(cdk.minify).toBe(api.minify);
    expect(cdk.externalModules).toEqual(api.external);
    expect(cdk.esbuildArgs).toEqual({ '--alias': Object.entries(api.alias!).map(([from, to]) => `${from}=${to}`) });
  });

  it('has the stack rebuild each asset through the same options, split into chunks', () => {
    const command = cdkBundling('/repo/functions/notes/handler.ts').commandHooks!.afterBundling('/repo', '/asset-output');
    expect(command).toEqual(["cd '/repo' && node --import tsx scripts/budgets/bundle-lambda.ts '/repo/functions/notes/handler.ts' '/asset-output'"]);
    const api = esbuildOptions('/repo/functions/notes/handler.ts', '/asset-output');
    expect(api).toMatchObject({ splitting: true, format: 'esm', entryNames: 'index', outExtension: { '.js': '.mjs' }, outdir: '/asset-output' });
  });

  it('keeps the SDK from the lockfile in the bundle and swaps only the credential chain and the endpoint cache LRU', () => {
    expect(LAMBDA_ESBUILD.external).toEqual([]);
    expect(Object.keys(LAMBDA_ESBUILD.alias)).toEqual(['@aws-sdk/credential-provider-node', 'mnemonist/lru-cache']);
  });

  it("keeps only the name and version of an SDK client's package.json, which its user agent reads", async () => {
    const result = await build({
      stdin: {
        contents: "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; export const client = new DynamoDBClient({ region: 'us-east-1' });",
        resolveDir: REPO_ROOT,
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      mainFields: [...LAMBDA_ESBUILD.mainFields],
      write: false,
      metafile: true,
      plugins: [sdkPackageVersionOnly],
      logLevel: 'silent',
    });
    const { version } = JSON.parse(readFileSync(`${REPO_ROOT}/node_modules/@aws-sdk/client-dynamodb/package.json`, 'utf8')) as { version: string };
    const output = result.outputFiles[0]!.text;
    expect(output).toContain(version);
    expect(output).not.toContain('"devDependencies"');
    const pkg = Object.entries(result.metafile!.inputs).find(([path]) => path.endsWith('client-dynamodb/package.json'));
    expect(pkg?.[1].bytes).toBeLessThan(100);
  });
});
