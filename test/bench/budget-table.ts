/**
 * The budgets table `npm run bench` ends with: every budgeted figure beside its budget.
 * Sizes and stack count come from the same code as `npm run check:budgets`; timings from the bench.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '../../infra/lib/paths.js';
import { BUDGETS } from '../../scripts/budgets/budgets.js';
import { evaluateModuleInit, evaluateSizes, kb, type BudgetLine } from '../../scripts/budgets/evaluate.js';
import { buildGroupBundles, moduleInit, schemasBuiltAtImport } from '../../scripts/budgets/lambda-bundles.js';
import { stackResourceCounts } from '../../scripts/budgets/stack-resources.js';
import { firstScreenWeights } from '../../scripts/budgets/web-entries.js';

const ms = (value: number) => `${value.toFixed(1)} ms`;
export const timingLine = (what: string, valueMs: number, budgetMs: number): BudgetLine => ({
  what,
  value: ms(valueMs),
  budget: ms(budgetMs),
  status: Number.isFinite(valueMs) && valueMs <= budgetMs ? 'ok' : 'OVER',
});
const missing = (what: string, why: string): BudgetLine => ({ what, value: '-', budget: why, status: 'OVER' });

/** Each group bundle's minified size and module-init median (a fresh node per run, 5 runs). */
export async function lambdaLines(): Promise<BudgetLine[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-bench-bundles-'));
  try {
    const bundles = await buildGroupBundles(dir);
    const lines: BudgetLine[] = [];
    const sizes = evaluateSizes({ bundles, webScreens: [], stacks: [] }).lines;
    bundles.forEach((bundle, i) => {
      const init = moduleInit(bundle.file);
      lines.push(sizes[i]);
      lines.push(...evaluateModuleInit([{ group: bundle.group, ...init, runs: 5, schemas: schemasBuiltAtImport(bundle.file) }], BUDGETS.lambdaInitMs).lines);
    });
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Both first screens from web/dist, and the stack count from cdk.out when a synth has run. */
export function webAndStackLines(): BudgetLine[] {
  const lines: BudgetLine[] = [];
  if (existsSync(repoPath('web/dist/.vite/manifest.json'))) {
    lines.push(...evaluateSizes({ bundles: [], webScreens: firstScreenWeights(repoPath('web/dist')), stacks: [] }).lines);
  } else {
    lines.push(missing('Web first screens (gzip)', `${kb(BUDGETS.webFirstScreenGzipBytes)}; web/dist has no manifest: npm run build:web`));
  }
  if (existsSync(repoPath('cdk.out/manifest.json'))) {
    lines.push(...evaluateSizes({ bundles: [], webScreens: [], stacks: stackResourceCounts(repoPath('cdk.out')) }).lines);
  } else {
    lines.push(missing('Stack (CloudFormation resources)', `${BUDGETS.stackResources}; no cdk.out: npm run synth`));
  }
  return lines;
}
