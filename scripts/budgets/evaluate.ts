/**
 * Pass/fail of the deterministic budgets (sizes and the stack's resource count), separated from
 * measuring so the rules can be tested on small fixtures.
 */
import { BUDGETS } from './budgets.js';

export interface SizeMeasurements {
  /** bytes: what a cold start loads; totalBytes: with the chunks only import() loads. */
  bundles: { group: string; bytes: number; totalBytes?: number }[];
  webScreens: { screen: string; gzipBytes: number }[];
  stacks: { stack: string; resources: number }[];
}

export type Budgets = Pick<typeof BUDGETS, 'lambdaBundleBytes' | 'webFirstScreenGzipBytes' | 'stackResources'>;

export interface BudgetLine {
  what: string;
  value: string;
  budget: string;
  status: 'ok' | 'OVER';
}

export interface BudgetVerdict {
  lines: BudgetLine[];
  /** One sentence per broken budget, naming the bundle, screen or stack and its figure. */
  failures: string[];
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function evaluateSizes(m: SizeMeasurements, budgets: Budgets = BUDGETS): BudgetVerdict {
  const lines: BudgetLine[] = [];
  const failures: string[] = [];
  for (const b of m.bundles) {
    const over = b.bytes > budgets.lambdaBundleBytes;
    lines.push({
      what: `Lambda bundle ${b.group} (minified, cold start)`,
      value: b.totalBytes && b.totalBytes > b.bytes ? `${kb(b.bytes)} (+${kb(b.totalBytes - b.bytes)} lazy)` : kb(b.bytes),
      budget: kb(budgets.lambdaBundleBytes),
      status: over ? 'OVER' : 'ok',
    });
    if (over) failures.push(`Lambda bundle "${b.group}" is ${kb(b.bytes)} minified on a cold start, over the ${kb(budgets.lambdaBundleBytes)} budget`);
  }
  for (const s of m.webScreens) {
    const over = s.gzipBytes > budgets.webFirstScreenGzipBytes;
    lines.push({
      what: `Web first screen ${s.screen} (gzip)`,
      value: kb(s.gzipBytes),
      budget: kb(budgets.webFirstScreenGzipBytes),
      status: over ? 'OVER' : 'ok',
    });
    if (over) failures.push(`Web first screen "${s.screen}" downloads ${kb(s.gzipBytes)} gzip, over the ${kb(budgets.webFirstScreenGzipBytes)} budget`);
  }
  for (const s of m.stacks) {
    const over = s.resources > budgets.stackResources;
    lines.push({
      what: `Stack ${s.stack} (CloudFormation resources)`,
      value: String(s.resources),
      budget: String(budgets.stackResources),
      status: over ? 'OVER' : 'ok',
    });
    if (over) failures.push(`Stack "${s.stack}" has ${s.resources} CloudFormation resources, over the budget of ${budgets.stackResources}`);
  }
  return { lines, failures };
}

export interface ModuleInitMeasurement {
  group: string;
  /** Median CPU ms of a fresh node importing the bundle (see moduleInit). */
  cpuMs: number;
  wallMs: number;
  runs: number;
  /** zod schemas the bundle builds while it loads: the figure's largest part a group's own code decides. */
  schemas?: number;
}

/** Module init beside its budget; a timing, so judged only by the commands that measure it, never by check:budgets. */
export function evaluateModuleInit(m: readonly ModuleInitMeasurement[], budgetMs: number = BUDGETS.lambdaInitMs): BudgetVerdict {
  const lines: BudgetLine[] = [];
  const failures: string[] = [];
  for (const g of m) {
    const over = !(g.cpuMs <= budgetMs);
    const schemas = g.schemas === undefined ? '' : `, ${g.schemas} schemas`;
    lines.push({
      what: `Lambda ${g.group} module init (CPU, median of ${g.runs})`,
      value: `${g.cpuMs.toFixed(1)} ms (wall ${g.wallMs.toFixed(0)}${schemas})`,
      budget: `${budgetMs.toFixed(1)} ms`,
      status: over ? 'OVER' : 'ok',
    });
    if (over) failures.push(`Lambda "${g.group}" takes ${g.cpuMs.toFixed(1)} ms CPU to load (median of ${g.runs}), over the ${budgetMs} ms budget`);
  }
  return { lines, failures };
}

/** A fixed-width table: what, figure, budget, status. */
export function formatLines(lines: readonly BudgetLine[]): string {
  const w = Math.max(8, ...lines.map((l) => l.what.length)) + 2;
  const v = Math.max(8, ...lines.map((l) => l.value.length)) + 2;
  const b = Math.max(8, ...lines.map((l) => l.budget.length)) + 2;
  const head = `${'budget'.padEnd(w)}${'figure'.padStart(v)}  ${'limit'.padEnd(b)}status`;
  return [head, ...lines.map((l) => `${l.what.padEnd(w)}${l.value.padStart(v)}  ${l.budget.padEnd(b)}${l.status}`)].join('\n');
}
