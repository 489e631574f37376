/**
 * `npm run check:budgets`: the deterministic size budgets. Bundles every group Lambda with
 * the stack's esbuild options, weighs the web app's first screens from web/dist (run
 * `npm run build:web` first) and counts the resources of the stacks in cdk.out (run
 * `npm run synth` first). Exits 1 naming each bundle, screen or stack over its budget.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '../../infra/lib/paths.js';
import { BUDGETS } from './budgets.js';
import { evaluateSizes, formatLines, kb } from './evaluate.js';
import { buildGroupBundles, largestInputs } from './lambda-bundles.js';
import { stackResourceCounts } from './stack-resources.js';
import { firstScreenWeights } from './web-entries.js';

async function main(): Promise<number> {
  const outDir = mkdtempSync(join(tmpdir(), 'tidewell-budgets-'));
  try {
    const bundles = await buildGroupBundles(outDir);
    const webScreens = firstScreenWeights(repoPath('web/dist'));
    const stacks = stackResourceCounts(repoPath('cdk.out'));
    const verdict = evaluateSizes({ bundles, webScreens, stacks });
    console.log(formatLines(verdict.lines));
    for (const bundle of bundles.filter((b) => b.bytes > BUDGETS.lambdaBundleBytes)) {
      console.log(`\nLargest inputs of the ${bundle.group} bundle:`);
      for (const input of largestInputs(bundle.metafile, 8)) console.log(`  ${kb(input.bytes).padStart(10)}  ${input.name}`);
    }
    if (verdict.failures.length) {
      console.error(`\ncheck:budgets failed:\n${verdict.failures.map((f) => `  - ${f}`).join('\n')}`);
      return 1;
    }
    console.log('\ncheck:budgets: every size budget holds.');
    return 0;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`check:budgets could not measure: ${error.message}`);
    process.exit(1);
  },
);
