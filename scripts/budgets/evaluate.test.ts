import { describe, expect, it } from 'vitest';
import { evaluateModuleInit, evaluateSizes, formatLines, type Budgets } from './evaluate.js';

const budgets: Budgets = { lambdaBundleBytes: 300 * 1024, webFirstScreenGzipBytes: 200 * 1024, stackResources: 250 };
const within = {
  bundles: [{ group: 'patients', bytes: 250 * 1024 }],
  webScreens: [{ screen: 'sign-in (signed out)', gzipBytes: 150 * 1024 }],
  stacks: [
    { stack: 'Tidewell-demo-data', resources: 20 },
    { stack: 'Tidewell-demo-app', resources: 208 },
  ],
};

describe('size budgets', () => {
  it('passes when every bundle, screen and stack is within budget', () => {
    const verdict = evaluateSizes(within, budgets);
    expect(verdict.failures).toEqual([]);
    expect(verdict.lines.map((l) => l.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('fails naming the bundle and its size when a bundle is over the budget, and not at exactly the budget', () => {
    expect(evaluateSizes({ ...within, bundles: [{ group: 'notes', bytes: 300 * 1024 }] }, budgets).failures).toEqual([]);
    const verdict = evaluateSizes({ ...within, bundles: [{ group: 'notes', bytes: 300.4 * 1024 }] }, budgets);
    expect(verdict.failures).toEqual(['Lambda bundle "notes" is 300.4 KB minified on a cold start, over the 300.0 KB budget']);
    expect(verdict.lines[0].status).toBe('OVER');
  });

  it('judges what a cold start loads, and shows the lazily loaded chunks beside it', () => {
    const verdict = evaluateSizes({ ...within, bundles: [{ group: 'notes', bytes: 273 * 1024, totalBytes: 487 * 1024 }] }, budgets);
    expect(verdict.failures).toEqual([]);
    expect(verdict.lines[0].value).toBe('273.0 KB (+214.0 KB lazy)');
  });

  it('fails naming the screen when a first screen downloads too much', () => {
    const verdict = evaluateSizes({ ...within, webScreens: [{ screen: '/home (signed in)', gzipBytes: 201 * 1024 }] }, budgets);
    expect(verdict.failures).toEqual(['Web first screen "/home (signed in)" downloads 201.0 KB gzip, over the 200.0 KB budget']);
  });

  it('fails with the count when a stack has too many resources, and not at exactly the budget', () => {
    expect(evaluateSizes({ ...within, stacks: [{ stack: 'Tidewell-demo-app', resources: 250 }] }, budgets).failures).toEqual([]);
    expect(evaluateSizes({ ...within, stacks: [{ stack: 'Tidewell-demo-app', resources: 251 }] }, budgets).failures).toEqual([
      'Stack "Tidewell-demo-app" has 251 CloudFormation resources, over the budget of 250',
    ]);
  });

  it("holds each of a practice's two stacks to the budget on its own, not their sum", () => {
    const verdict = evaluateSizes(
      {
        ...within,
        stacks: [
          { stack: 'Tidewell-demo-data', resources: 20 },
          { stack: 'Tidewell-demo-app', resources: 240 },
        ],
      },
      budgets,
    );
    expect(verdict.failures).toEqual([]);
    const over = evaluateSizes(
      {
        ...within,
        stacks: [
          { stack: 'Tidewell-demo-data', resources: 251 },
          { stack: 'Tidewell-demo-app', resources: 240 },
        ],
      },
      budgets,
    );
    expect(over.failures).toEqual(['Stack "Tidewell-demo-data" has 251 CloudFormation resources, over the budget of 250']);
  });

  it('prints each figure beside its budget', () => {
    const table = formatLines(evaluateSizes(within, budgets).lines);
    expect(table).toMatch(/Lambda bundle patients \(minified, cold start\)\s+250\.0 KB\s+300\.0 KB\s+ok/);
    expect(table).toMatch(/Stack Tidewell-demo-data \(CloudFormation resources\)\s+20\s+250\s+ok/);
    expect(table).toMatch(/Stack Tidewell-demo-app \(CloudFormation resources\)\s+208\s+250\s+ok/);
  });
});

describe('module init budget', () => {
  it('prints each group’s median beside the budget with the schemas it builds, and fails naming a group over it', () => {
    const verdict = evaluateModuleInit(
      [
        { group: 'patients', cpuMs: 41.26, wallMs: 44.4, runs: 5, schemas: 324 },
        { group: 'notes', cpuMs: 60, wallMs: 63, runs: 5, schemas: 396 },
        { group: 'chart', cpuMs: 60.04, wallMs: 70.2, runs: 9 },
      ],
      60,
    );
    expect(verdict.lines.map((l) => [l.what, l.value, l.budget, l.status])).toEqual([
      ['Lambda patients module init (CPU, median of 5)', '41.3 ms (wall 44, 324 schemas)', '60.0 ms', 'ok'],
      ['Lambda notes module init (CPU, median of 5)', '60.0 ms (wall 63, 396 schemas)', '60.0 ms', 'ok'],
      ['Lambda chart module init (CPU, median of 9)', '60.0 ms (wall 70)', '60.0 ms', 'OVER'],
    ]);
    expect(verdict.failures).toEqual(['Lambda "chart" takes 60.0 ms CPU to load (median of 9), over the 60 ms budget']);
  });

  it('counts a measurement that failed as over the budget', () => {
    expect(evaluateModuleInit([{ group: 'ai', cpuMs: Number.NaN, wallMs: Number.NaN, runs: 5 }], 60).lines[0].status).toBe('OVER');
  });
});
