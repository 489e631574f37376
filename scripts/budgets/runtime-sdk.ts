/**
 * Bundling the lockfile's AWS SDK or relying on the copy the Lambda runtime provides: bundles each
 * group both ways with the stack's esbuild options and prints the cold-start size and module init
 * of each. The runtime's copy is stood in for by the lockfile's node_modules, unbundled files
 * that node resolves and loads one by one, as the runtime loads its own.
 *
 *   npx tsx scripts/budgets/runtime-sdk.ts [group ...]
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { GROUPS } from '../../functions/groups.js';
import { esbuildOptions, LAMBDA_ENTRY_FILE } from '../../infra/lib/lambda-bundling.js';
import { repoPath, REPO_ROOT } from '../../infra/lib/paths.js';
import { buildGroupBundles, coldStartFiles, moduleInit } from './lambda-bundles.js';

const RUNS = 7;
const wanted = process.argv.slice(2);
const groups = GROUPS.filter((g) => wanted.length === 0 || wanted.includes(g.name));
// Inside the repository, so that the externals resolve from its node_modules.
const outRoot = join(REPO_ROOT, '.local', 'runtime-sdk');
rmSync(outRoot, { recursive: true, force: true });

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`${'group'.padEnd(15)}${'bundled SDK'.padStart(14)}${'init CPU'.padStart(10)}${'runtime SDK'.padStart(14)}${'init CPU'.padStart(10)}`);
for (const group of groups) {
  const [bundled] = await buildGroupBundles(join(outRoot, 'bundled'), [group]);
  const dir = join(outRoot, 'runtime', group.name);
  mkdirSync(dir, { recursive: true });
  const { metafile } = await build({ ...esbuildOptions(repoPath(group.entry), dir), external: ['@aws-sdk/*', '@smithy/*'], absWorkingDir: REPO_ROOT });
  const entry = Object.entries(metafile!.outputs).find(([, o]) => o.entryPoint)![0];
  const runtimeBytes = [...coldStartFiles(metafile!, entry)].reduce((sum, path) => sum + metafile!.outputs[path].bytes, 0);
  const runtimeFile = join(dir, LAMBDA_ENTRY_FILE);
  const a = moduleInit(bundled.file, RUNS);
  const b = moduleInit(runtimeFile, RUNS);
  console.log(
    `${group.name.padEnd(15)}${kb(bundled.bytes).padStart(14)}${`${a.cpuMs.toFixed(1)} ms`.padStart(10)}${kb(runtimeBytes).padStart(14)}${`${b.cpuMs.toFixed(1)} ms`.padStart(10)}`,
  );
}
console.log(`(module init: CPU of a fresh node process importing the handler, median of ${RUNS})`);
