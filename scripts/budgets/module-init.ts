/**
 * `npx tsx scripts/budgets/module-init.ts [group ...] [--runs N]`: bundles each group Lambda with the
 * stack's esbuild options and prints its module init (a fresh node importing the bundle, CPU, median
 * of N runs, 5 unless told) beside the budget, with the zod schemas it builds while it loads.
 * Exits 1 naming each group over the budget.
 *
 * A timing on a shared machine: the runs go round the groups in turn, so a busy spell weighs on
 * every group alike rather than on whichever was measured then.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUPS } from '../../functions/groups.js';
import { evaluateModuleInit, formatLines, type ModuleInitMeasurement } from './evaluate.js';
import { buildGroupBundles, importOnce, median, schemasBuiltAtImport } from './lambda-bundles.js';

function parseArgs(argv: string[]): { groups: string[]; runs: number } {
  const groups: string[] = [];
  let runs = 5;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else groups.push(argv[i]);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of at least 1');
  const unknown = groups.filter((g) => !GROUPS.some((d) => d.name === g));
  if (unknown.length) throw new Error(`No group named ${unknown.join(', ')}; the groups are ${GROUPS.map((g) => g.name).join(', ')}`);
  return { groups, runs };
}

async function main(): Promise<number> {
  const { groups, runs } = parseArgs(process.argv.slice(2));
  const outDir = mkdtempSync(join(tmpdir(), 'tidewell-module-init-'));
  try {
    const bundles = await buildGroupBundles(outDir, groups.length ? GROUPS.filter((g) => groups.includes(g.name)) : GROUPS);
    const timings = bundles.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
    for (let run = 0; run < runs; run++) {
      bundles.forEach((bundle, i) => {
        const [wall, cpu] = importOnce(bundle.file);
        timings[i].wall.push(wall);
        timings[i].cpu.push(cpu);
      });
    }
    const measured: ModuleInitMeasurement[] = bundles.map((bundle, i) => ({
      group: bundle.group,
      cpuMs: median(timings[i].cpu),
      wallMs: median(timings[i].wall),
      runs,
      schemas: schemasBuiltAtImport(bundle.file),
    }));
    const verdict = evaluateModuleInit(measured);
    console.log(formatLines(verdict.lines));
    if (verdict.failures.length) {
      console.error(`\nmodule init over budget:\n${verdict.failures.map((f) => `  - ${f}`).join('\n')}`);
      return 1;
    }
    console.log('\nEvery group loads within the module-init budget.');
    return 0;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`module-init could not measure: ${error.message}`);
    process.exit(1);
  },
);
