import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DrugProduct } from '../../shared/chart/code-sets.js';
import { searchDrugs } from '../../functions/inventory/search-drugs.js';
import { importNdc } from '../../functions/lib/code-sets/importers.js';
import { DrugIndex, ndc11, parseNdcDirectory } from '../../functions/lib/code-sets/ndc.js';
import { latencySummary } from './stats.js';
import { writeSyntheticNdcDirectory } from './synthetic-ndc.js';

/** What the medication form sends: generic and brand prefixes (more than 3 characters), full names, NDCs. */
function drugQueries(brands: readonly string[], ndcs: readonly string[]): string[] {
  const generic = [
    'lisin',
    'lisinopril',
    'metformin hydro',
    'atorvastatin calcium',
    'amox',
    'amoxicillin',
    'sodium chloride',
    'hydrochlorothiazide',
    'predniso',
    'levothyroxine sodium',
    'insulin glargine',
    'sertraline',
    'gabap',
    'omeprazole',
    'potassium chl',
    'hydro',
    'sodium',
  ];
  const brandQueries = Array.from({ length: 20 }, (_, i) => brands[(i * 7919) % brands.length]).flatMap((b) => [b.slice(0, 4), b]);
  const ndcQueries = Array.from({ length: 10 }, (_, i) => ndcs[(i * 104729) % ndcs.length]).flatMap((n) => [
    n,
    n.slice(0, 8),
    n.replace(/-/g, '').padStart(11, '0'),
  ]);
  return [...generic, ...brandQueries, ...ndcQueries];
}

/** The search before the index (one pass over every package per query), kept as the baseline. */
function scanSearch(drugs: readonly DrugProduct[]) {
  const rows = [...drugs]
    .sort((a, b) => a.productName.localeCompare(b.productName) || a.strength.localeCompare(b.strength, 'en', { numeric: true }))
    .map((drug) => ({
      drug,
      words: `${drug.productName} ${drug.genericName}`
        .toLowerCase()
        .split(/[^a-z0-9.]+/)
        .filter(Boolean),
      digits: drug.ndc11?.replace(/-/g, '') ?? '',
    }));
  return (text: string, limit: number) => {
    const q = text.trim().toLowerCase();
    if (/^[\d-]+$/.test(q)) {
      const digits = ndc11(q) ?? q.replace(/-/g, '');
      const hits = rows.filter((r) => r.digits !== '' && r.digits.startsWith(digits));
      return { items: hits.slice(0, limit).map((h) => h.drug), total: hits.length };
    }
    const tokens = q.split(/[^a-z0-9.]+/).filter(Boolean);
    const hits = rows.filter((r) => tokens.every((t) => r.words.some((w) => w.startsWith(t))));
    hits.sort((a, b) => Number(!a.drug.productName.toLowerCase().startsWith(tokens[0])) - Number(!b.drug.productName.toLowerCase().startsWith(tokens[0])));
    return { items: hits.slice(0, limit).map((h) => h.drug), total: hits.length };
  };
}

const ms = (t0: number) => `${(performance.now() - t0).toFixed(0)} ms`;
const fmt = (s: { p50: number; p95: number; p99: number; count: number }) =>
  `p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms (${s.count} searches)`;

/**
 * Writes a synthetic FDA NDC directory of realistic size into `dir` (a temporary folder), then
 * measures drug search: the index alone against the former full scan, and the search use case at
 * the handler after importing the directory into the running local stack (the ≤ 20 ms p95
 * target is about the search itself). Returns the HTTP scenario for bench.ts.
 */
export async function prepareDrugBench(dir: string, requests: number, products = 120_000) {
  let t0 = performance.now();
  const data = writeSyntheticNdcDirectory(join(dir, 'ndc'), products);
  console.log(`  NDC: synthetic FDA directory of ${data.products} products / ${data.packages} packages written in ${ms(t0)}`);
  t0 = performance.now();
  const drugs = parseNdcDirectory(data.productText, data.packageText);
  console.log(`  NDC: parsed ${drugs.length} packages in ${ms(t0)}`);
  t0 = performance.now();
  const index = new DrugIndex(drugs);
  console.log(`  NDC: index built in ${ms(t0)}`);
  const queries = drugQueries(data.brandNames, data.ndcs);

  const indexed: number[] = [];
  for (let i = 0; i < Math.max(requests, 1000); i++) {
    const t = performance.now();
    index.search(queries[i % queries.length], undefined, 25);
    indexed.push(performance.now() - t);
  }
  const scan = scanSearch(drugs);
  const scanned: number[] = [];
  for (let i = 0; i < Math.min(requests, queries.length * 2); i++) {
    const t = performance.now();
    scan(queries[i % queries.length], 25);
    scanned.push(performance.now() - t);
  }
  console.log(`  NDC index search alone: ${fmt(latencySummary(indexed))} (target p95 ≤ 20 ms)`);
  console.log(`  NDC former full scan:   ${fmt(latencySummary(scanned))}`);

  t0 = performance.now();
  const manifest = await importNdc(join(dir, 'ndc'));
  console.log(`  NDC: imported ${manifest.source.count} packages into the local stack in ${ms(t0)}`);
  t0 = performance.now();
  await searchDrugs('lisinopril', undefined, 25);
  console.log(`  NDC: first search (cold download and index build): ${ms(t0)}`);
  const handler: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    await searchDrugs(queries[i % queries.length], undefined, 25);
    handler.push(performance.now() - t);
  }
  console.log(`  NDC search at the handler (manifest read + index): ${fmt(latencySummary(handler))}\n`);
  return [
    {
      name: 'drug search (120k products, HTTP)',
      path: (i: number) => `/v2/nationaldrugcodes/search?searchText=${encodeURIComponent(queries[i % queries.length])}`,
    },
  ];
}
