/**
 * `node --import tsx scripts/budgets/bundle-lambda.ts <entry> <outdir>`: bundles one Lambda handler
 * with the stack's esbuild options (index.mjs and its chunks/) into outdir, replacing what is there.
 * The stack runs it after NodejsFunction's own esbuild pass (see infra/lib/lambda-bundling.ts).
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { esbuildOptions } from '../../infra/lib/lambda-bundling.js';
import { REPO_ROOT } from '../../infra/lib/paths.js';

const [entry, outdir] = process.argv.slice(2);
if (!entry || !outdir) {
  console.error('usage: bundle-lambda.ts <handler entry> <output folder>');
  process.exit(2);
}
for (const stale of ['index.mjs', 'index.mjs.map', 'chunks']) rmSync(join(outdir, stale), { recursive: true, force: true });
await build({ ...esbuildOptions(resolve(REPO_ROOT, entry), outdir), absWorkingDir: REPO_ROOT, logLevel: 'warning' });
