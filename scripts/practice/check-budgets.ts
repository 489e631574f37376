/**
 * The budgets of `npm run check:budgets`, split for a fleet deploy: `--shared` weighs what every
 * practice shares (Lambda bundles, web first screens) once; each assembly directory given counts
 * the resources of its stacks (one practice synthesized into cdk.out/practices/<slug>).
 * Exits 1 naming each budget broken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoPath } from '../../infra/lib/paths.js';
import { evaluateSizes, formatLines, type SizeMeasurements } from '../budgets/evaluate.js';
import { buildGroupBundles } from '../budgets/lambda-bundles.js';
import { stackResourceCounts } from '../budgets/stack-resources.js';
import { firstScreenWeights } from '../budgets/web-entries.js';

async function main(args: string[]): Promise<number> {
  const m: SizeMeasurements = { bundles: [], webScreens: [], stacks: [] };
  if (args.includes('--shared')) {
    const outDir = mkdtempSync(join(tmpdir(), 'tidewell-budgets-'));
    try {
      m.bundles = await buildGroupBundles(outDir);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
    m.webScreens = firstScreenWeights(repoPath('web/dist'));
  }
  for (const dir of args.filter((a) => a !== '--shared')) m.stacks.push(...stackResourceCounts(resolve(dir)));
  const verdict = evaluateSizes(m);
  console.log(formatLines(verdict.lines));
  if (verdict.failures.length) {
    console.error(`budgets broken:\n${verdict.failures.map((f) => `  - ${f}`).join('\n')}`);
    return 1;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`The budgets could not be measured: ${error.message}`);
    process.exit(1);
  },
);
