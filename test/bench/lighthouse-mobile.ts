/**
 * Lighthouse performance (mobile preset, simulated throttling) of the three first screens of a
 * running server: the sign-in screen, a signed-in /home and a patient chart. It starts nothing:
 * `npm start` (or any served build) must be up. It signs in once with Playwright into a temporary
 * Chromium profile, then runs Lighthouse 3 times per page against that profile with an empty HTTP
 * cache each time, and prints the median score, total blocking time and largest contentful paint.
 * Each run also gives Lighthouse's benchmark index of the machine: the simulation multiplies the
 * CPU time it observed, so a run on a busy machine (a lower index) scores lower for the same page;
 * compare builds by runs taken in turn and of like index.
 * By default it measures the server as the deployed stack serves it (production-origins.ts): the
 * web app over HTTP/2 and TLS, the API on an origin of its own with CORS preflights; `--http1`
 * measures the local server's single HTTP/1.1 origin as it is.
 *
 * `--assets` keeps each run's trace next to its report (`<report>-0.trace.json`), for a look at its
 * long tasks; `--trace-categories disabled-by-default-v8.cpu_profiler` adds a CPU profile to it.
 * `--devtools-throttling` throttles the real load (network and CPU) instead of simulating it: the
 * order in which requests actually start then shows in LCP, which the simulation does not model.
 *
 *   npm run bench:lighthouse -- [--url http://localhost:3000] [--runs 3] [--patient pat-0001] [--out dir] [--pages sign-in,home,chart] [--http1] [--assets] [--trace-categories c] [--devtools-throttling]
 */
import { chromium } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { startProductionOrigins } from '../support/production-origins.js';

const run = promisify(execFile);
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const LIGHTHOUSE = 'lighthouse@12';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: `http://localhost:${process.env.PORT ?? 3000}` },
    runs: { type: 'string', default: '3' },
    patient: { type: 'string', default: 'pat-0001' },
    email: { type: 'string', default: 'provider@demo.tidewell.local' },
    out: { type: 'string' },
    http1: { type: 'boolean', default: false },
    assets: { type: 'boolean', default: false },
    'devtools-throttling': { type: 'boolean', default: false },
    'trace-categories': { type: 'string' },
    pages: { type: 'string', default: 'sign-in,home,chart' },
  },
});
const upstream = values.url.replace(/\/$/, '');
/** Where the browser goes: the local server itself with --http1, else its production-like web origin. */
let origin = upstream;
const runs = Number(values.runs);

interface Page {
  /** As `--pages` names it. */
  key: string;
  name: string;
  path: string;
  signedIn: boolean;
}

const PAGES: Page[] = [
  { key: 'sign-in', name: 'sign-in', path: '/#/home', signedIn: false },
  { key: 'home', name: '/home', path: '/#/home', signedIn: true },
  { key: 'chart', name: 'patient chart', path: `/#/patients/${values.patient}`, signedIn: true },
];

interface Measure {
  score: number;
  tbtMs: number;
  lcpMs: number;
  fcpMs: number;
  bootupMs: number;
  scripts: number;
  transferredKb: number;
  /** Lighthouse's measure of this machine's speed as the run began: lower on a busy machine. */
  benchmarkIndex: number;
}

/** Signs in through the form, as a user would, so the profile holds Amplify's session. */
async function signInto(profile: string): Promise<void> {
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, ignoreHTTPSErrors: !values.http1 });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/#/home`);
    await page.getByLabel('Email').fill(values.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('practice-name').waitFor({ timeout: 60_000 });
  } finally {
    await context.close();
  }
}

/** Lighthouse keeps a profile's storage with --disable-storage-reset, and its HTTP cache with it: a cold load needs the cache gone. */
function emptyCaches(profile: string): void {
  for (const dir of ['Cache', 'Code Cache', 'GPUCache', 'Service Worker']) rmSync(join(profile, 'Default', dir), { recursive: true, force: true });
}

async function lighthouse(page: Page, profile: string, output: string): Promise<Measure> {
  const flags = ['--headless=new', '--no-sandbox', ...(values.http1 ? [] : ['--ignore-certificate-errors']), `--user-data-dir=${profile}`].join(' ');
  await run(
    'npx',
    [
      '--yes',
      LIGHTHOUSE,
      `${origin}${page.path}`,
      '--form-factor=mobile',
      '--only-categories=performance',
      '--output=json',
      `--output-path=${output}`,
      '--quiet',
      `--chrome-flags=${flags}`,
      ...(page.signedIn ? ['--disable-storage-reset'] : []),
      ...(values.assets ? ['--save-assets'] : []),
      ...(values['devtools-throttling'] ? ['--throttling-method=devtools'] : []),
      ...(values['trace-categories'] ? [`--additional-trace-categories=${values['trace-categories']}`] : []),
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(readFileSync(output, 'utf8')) as {
    categories: { performance: { score: number } };
    environment: { benchmarkIndex?: number };
    audits: Record<string, { numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number }[] } }>;
  };
  const requests = report.audits['network-requests']?.details?.items ?? [];
  return {
    score: Math.round(report.categories.performance.score * 100),
    tbtMs: report.audits['total-blocking-time']?.numericValue ?? NaN,
    lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? NaN,
    fcpMs: report.audits['first-contentful-paint']?.numericValue ?? NaN,
    bootupMs: report.audits['bootup-time']?.numericValue ?? NaN,
    scripts: requests.filter((r) => r.resourceType === 'Script').length,
    transferredKb: requests.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1000,
    benchmarkIndex: report.environment.benchmarkIndex ?? NaN,
  };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'tw-lighthouse-'));
  const out = values.out ?? work;
  mkdirSync(out, { recursive: true });
  const signedIn = join(work, 'signed-in');
  const origins = values.http1 ? undefined : await startProductionOrigins(upstream, work);
  if (origins) origin = origins.webOrigin;
  try {
    await signInto(signedIn);
    const rows: string[] = [];
    for (const page of PAGES.filter((p) => values.pages.split(',').includes(p.key))) {
      const measures: Measure[] = [];
      for (let i = 0; i < runs; i += 1) {
        const profile = page.signedIn ? signedIn : mkdtempSync(join(work, 'signed-out-'));
        emptyCaches(profile);
        const m = await lighthouse(page, profile, join(out, `${page.name.replace(/\W+/g, '-').replace(/^-|-$/g, '')}-${i + 1}.json`));
        console.log(
          `${page.name} run ${i + 1}: score ${m.score}, TBT ${Math.round(m.tbtMs)} ms, LCP ${Math.round(m.lcpMs)} ms, boot-up ${Math.round(m.bootupMs)} ms, benchmark index ${Math.round(m.benchmarkIndex)}`,
        );
        measures.push(m);
      }
      const med = (pick: (m: Measure) => number) => median(measures.map(pick));
      rows.push(
        `| ${page.name} | ${med((m) => m.score)} | ${Math.round(med((m) => m.tbtMs))} | ${(med((m) => m.lcpMs) / 1000).toFixed(1)} | ${(med((m) => m.fcpMs) / 1000).toFixed(1)} | ${(med((m) => m.bootupMs) / 1000).toFixed(1)} | ${med((m) => m.scripts)} | ${Math.round(med((m) => m.transferredKb))} | ${Math.round(med((m) => m.benchmarkIndex))} |`,
      );
    }
    const served = origins
      ? `web ${origins.webOrigin} (HTTP/2, TLS), API ${origins.apiOrigin} (CORS preflights), in front of ${upstream}`
      : `${upstream}, HTTP/1.1`;
    console.log(`\nLighthouse ${LIGHTHOUSE}, mobile, ${values['devtools-throttling'] ? 'devtools' : 'simulated'} throttling, median of ${runs} (${served})\n`);
    console.log('| page | score | TBT ms | LCP s | FCP s | JS boot-up s | scripts | KB transferred | benchmark index |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    if (values.out) console.log(`\nReports: ${values.out}`);
  } finally {
    await origins?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
