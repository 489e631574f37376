import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { searchIcd10 } from '../../functions/chart/code-lookups.js';
import { icd10Codes } from '../../functions/lib/code-sets/code-sets.js';
import { importIcd10 } from '../../functions/lib/code-sets/importers.js';
import { latencySummary } from './stats.js';

const ICD10_FILE = resolve(import.meta.dirname, '../../../shared/data/icd10cm-codes-2027.txt');

/** Keywords a clinician types: codes with and without the dot, code prefixes, description words. */
export const ICD10_KEYWORDS = [
  'E11.9',
  'e119',
  'I10',
  'J45',
  'M54.5',
  'C78.31',
  'type 2 diabetes',
  'hypertension',
  'asthma',
  'low back pain',
  'fracture of femur',
  'otitis media',
  'urinary tract infection',
  'depress',
  'anxiety disorder',
  'S72',
  'Z00.0',
  'chronic kidney',
  'pneumonia',
  'migraine without aura',
];

/**
 * Loads the official FY2027 release (when ../shared/data has it) into the running local stack,
 * then measures the ICD-10 search use case in process (manifest GetItem + in-memory index), the
 * handler-side figure the ≤ 20 ms p95 target is about. Returns the HTTP scenarios for bench.ts.
 */
export async function prepareIcd10Bench(requests: number) {
  if (existsSync(ICD10_FILE)) {
    const t0 = performance.now();
    const manifest = await importIcd10(ICD10_FILE);
    console.log(`  ICD-10-CM: imported ${manifest.source.count} codes in ${(performance.now() - t0).toFixed(0)} ms`);
  } else {
    console.log('  ICD-10-CM: official file not found; measuring the built-in starter set');
  }
  const cold = performance.now();
  const first = await searchIcd10({ keyword: 'E11.9', limit: 25, offset: 0 });
  console.log(`  ICD-10-CM: first search (cold load of ${first.source.count} codes): ${(performance.now() - cold).toFixed(0)} ms`);
  const latencies: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    await searchIcd10({ keyword: ICD10_KEYWORDS[i % ICD10_KEYWORDS.length], limit: 25, offset: 0 });
    latencies.push(performance.now() - t);
  }
  const s = latencySummary(latencies);
  const { value: index } = await icd10Codes();
  const pure: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    index.search(ICD10_KEYWORDS[i % ICD10_KEYWORDS.length], 25, 0);
    pure.push(performance.now() - t);
  }
  const p = latencySummary(pure);
  console.log(`  ICD-10-CM index search alone: p50 ${p.p50.toFixed(2)} ms, p95 ${p.p95.toFixed(2)} ms`);
  console.log(
    `  ICD-10-CM search at the handler (${s.count} searches): p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms (target p95 ≤ 20 ms)\n`,
  );
  return [
    {
      name: 'ICD-10 search (full set, HTTP)',
      path: (i: number) => `/v1/icd-10-codes?keyword=${encodeURIComponent(ICD10_KEYWORDS[i % ICD10_KEYWORDS.length])}&limit=25`,
    },
  ];
}
