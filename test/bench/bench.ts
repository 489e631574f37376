/**
 * `npm run bench [-- --scale demo|5k|20k|large --data-dir <folder> --patients 5000 --requests 200 --concurrency 8 --notes 10000 --chart-runs 5 --max-seconds 300 --fhir-patients 5000]`
 *
 * Starts the local runtime on a temporary folder, loads N synthetic patients through the patient
 * repository, signs in the demo provider, and measures patient list and search through the
 * local HTTP API, then ICD-10 search over the official release and drug search over a synthetic
 * FDA NDC directory of realistic size written into the temporary folder. Prints p50/p95/p99
 * latency and requests/s per scenario. Then opens a full chart in Chromium (10,000 notes in the
 * practice, 200 on the patient), bundles every group Lambda and weighs the web app's first screens,
 * then exports a whole practice of --fhir-patients patients with charts and notes as FHIR Bulk Data
 * (its own runtime; 0 leaves it out), and ends with one table of every budget beside its figure.
 * A figure, not a test.
 */
import { InitiateAuthCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { putPatientsBatch } from '../../functions/data/patients/patient-repository.js';
import { startLocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { prepareDrugBench } from './drug-bench.js';
import { prepareIcd10Bench } from './icd10-bench.js';
import { BUDGETS } from '../../scripts/budgets/budgets.js';
import { formatLines, type BudgetLine } from '../../scripts/budgets/evaluate.js';
import { measureApiBudget } from './api-budget.js';
import { measureStreamLatency, STREAM_LATENCY_BUDGET_P95_MS } from './stream-latency.js';
import { COPILOT_FIRST_TOKEN_BUDGET_P95_MS, measureCopilotFirstToken } from './copilot-first-token.js';
import { lambdaLines, timingLine, webAndStackLines } from './budget-table.js';
import { measureChartOpen, seedChart } from './chart-open.js';
import { measureSmsChatLatency, SMS_CHAT_BUDGET_P95_MS } from './sms-chat-latency.js';
import { formatPipelineTiming, measureScribePipeline } from './scribe-pipeline.js';
import { latencySummary, type LatencySummary } from './stats.js';
import { syntheticPatients } from './synthetic-patients.js';
import { measureFhirBulkExport } from './fhir-bulk-export.js';
import { INDEX_SETTLE_MS } from '../../functions/data/patients/patient-index-cache.js';

interface Options {
  patients: number;
  requests: number;
  concurrency: number;
  notes: number;
  chartRuns: number;
  maxSeconds: number;
  fhirPatients: number;
  scale?: string;
  /** A data folder kept after the run; a later run with the same patient count reuses its patients. */
  dataDir?: string;
}

/**
 * The scale ladder: each preset sets the patients loaded, the notes in the practice whose chart
 * Chromium opens, and the practice exported as FHIR; a flag given beside `--scale` overrides its preset.
 */
const BENCH_SCALES: Record<string, Pick<Options, 'patients' | 'notes' | 'fhirPatients'>> = {
  demo: { patients: 100, notes: 200, fhirPatients: 100 },
  '5k': { patients: 5_000, notes: 1_000, fhirPatients: 5_000 },
  '20k': { patients: 20_000, notes: 10_000, fhirPatients: 20_000 },
  large: { patients: 20_000, notes: 10_000, fhirPatients: 20_000 },
};

/** What a kept data folder holds, so a later run loads its patients only when they differ. */
const SEED_MARKER = 'bench-seed.json';

function parseArgs(argv: string[]): Options {
  const opts: Options = { patients: 5000, requests: 200, concurrency: 8, notes: 10_000, chartRuns: 5, maxSeconds: 300, fhirPatients: 5000 };
  const scaleAt = argv.indexOf('--scale');
  if (scaleAt >= 0) {
    const name = argv[scaleAt + 1];
    const preset = BENCH_SCALES[name];
    if (!preset) throw new Error(`--scale must be one of ${Object.keys(BENCH_SCALES).join(', ')}`);
    Object.assign(opts, preset, { scale: name });
  }
  const dirAt = argv.indexOf('--data-dir');
  if (dirAt >= 0) {
    if (!argv[dirAt + 1] || argv[dirAt + 1].startsWith('--')) throw new Error('--data-dir needs a folder');
    opts.dataDir = argv[dirAt + 1];
  }
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    const value = Number(argv[i + 1]);
    const field = (
      {
        patients: 'patients',
        requests: 'requests',
        concurrency: 'concurrency',
        notes: 'notes',
        'chart-runs': 'chartRuns',
        'max-seconds': 'maxSeconds',
        'fhir-patients': 'fhirPatients',
      } as const
    )[key as 'patients'];
    if (field && Number.isFinite(value) && (value > 0 || (key === 'fhir-patients' && value === 0))) {
      opts[field] = Math.floor(value);
      i++;
    }
  }
  opts.patients = Math.min(opts.patients, 50_000);
  opts.requests = Math.min(opts.requests, 5_000);
  opts.concurrency = Math.min(opts.concurrency, 64);
  opts.notes = Math.min(opts.notes, 50_000);
  opts.chartRuns = Math.min(opts.chartRuns, 20);
  opts.fhirPatients = Math.min(opts.fhirPatients, 50_000);
  return opts;
}

interface Scenario {
  name: string;
  /** Path for the i-th request. */
  path: (i: number) => string;
  requests?: number;
  /** Runs before each request, outside the measured time. */
  before?: (i: number) => Promise<void>;
}

async function run() {
  const opts = parseArgs(process.argv.slice(2));
  process.env.TIDEWELL_LOG ??= 'silent';
  const deadline = Date.now() + opts.maxSeconds * 1000;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'tidewell-bench-'));
  if (opts.dataDir) mkdirSync(dataDir, { recursive: true });
  const marker = join(dataDir, SEED_MARKER);
  const seeded = existsSync(marker) && (JSON.parse(readFileSync(marker, 'utf8')) as { patients?: number }).patients === opts.patients;
  console.log(
    `Tidewell bench${opts.scale ? ` at scale ${opts.scale}` : ''}: ${opts.patients} patients, ${opts.requests} requests per scenario, concurrency ${opts.concurrency}`,
  );
  // The web app is served for the chart-open measurement (built first if web/dist is stale).
  const runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: true, seed: true });
  const budgetLines: BudgetLine[] = [];
  try {
    const practiceId = runtime.endpoints.practiceId;
    const patients = syntheticPatients(opts.patients);
    const loadStart = performance.now();
    if (seeded) {
      console.log(`  reusing the ${patients.length} patients already in ${dataDir}`);
    } else {
      for (let i = 0; i < patients.length; i += 500) {
        await putPatientsBatch(practiceId, patients.slice(i, i + 500));
        process.stdout.write(`\r  loaded ${Math.min(i + 500, patients.length)}/${patients.length} patients`);
      }
      const loadSeconds = (performance.now() - loadStart) / 1000;
      console.log(`\n  load: ${loadSeconds.toFixed(1)} s (${Math.round(patients.length / loadSeconds)} patients/s, BatchWriteItem)`);
      if (opts.dataDir) writeFileSync(marker, JSON.stringify({ patients: opts.patients, seed: 42 }));
    }
    // A list within INDEX_SETTLE_MS of the last patient write reads its page from the table and
    // reloads the cached index once that time has passed (GSI reads are eventually consistent):
    // the cold list and the steady-state figures start after it, as in a practice at work.
    await new Promise((resolve) => setTimeout(resolve, INDEX_SETTLE_MS));

    const token = await signIn(runtime.outputs.cognitoEndpoint, runtime.outputs.region, runtime.outputs.userPoolClientId);
    const apiUrl = runtime.outputs.apiUrl;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
      return JSON.parse(text) as { total?: number };
    };

    const cold = performance.now();
    const first = await call('GET', '/v1/patients?limit=100&offset=0');
    console.log(`  first list (cold index load of ${first.total} patients): ${(performance.now() - cold).toFixed(0)} ms\n`);

    const pick = <T>(list: readonly T[], i: number) => list[(i * 7919) % list.length];
    const lastNamePrefixes = [...new Set(patients.map((p) => p.lastName.slice(0, 3).toLowerCase()))];

    const apiBudget = await measureApiBudget({
      runtime,
      token,
      searchTerms: lastNamePrefixes,
      requests: opts.requests,
      concurrency: opts.concurrency,
      deadline,
    });
    console.log(`Where a patient list/search request spends its time (each step alone, concurrency ${opts.concurrency}):`);
    console.log(`${'step'.padEnd(44)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}`);
    for (const step of apiBudget.steps) console.log(`${step.step.padEnd(44)}${step.p50.toFixed(2).padStart(9)}${step.p95.toFixed(2).padStart(9)}`);
    console.log(`  dynalite: the index version read (consistent GetItem) costs ${apiBudget.engineRatio.toFixed(2)}x a bare GetItem on the same engine\n`);
    budgetLines.push(
      timingLine(`API patient list p95 (${opts.patients} patients, c=${opts.concurrency}, client thread)`, apiBudget.list.p95, BUDGETS.apiP95Ms),
      timingLine(`API patient search p95 (${opts.patients} patients, c=${opts.concurrency}, client thread)`, apiBudget.search.p95, BUDGETS.apiP95Ms),
      { what: 'API patient list / search p50', value: `${apiBudget.list.p50.toFixed(1)} / ${apiBudget.search.p50.toFixed(1)} ms`, budget: '-', status: 'ok' },
    );
    const fullNames = patients.map((p) => `${p.firstName} ${p.lastName}`);
    const phones = patients.map((p) => p.phones?.[0]?.number.slice(2) ?? '5550100000');
    const scrambled = (digits: string) => digits.slice(3, 7).split('').reverse().join('');
    let created = 0;
    const icd10Scenarios = await prepareIcd10Bench(opts.requests);
    const drugScenarios = await prepareDrugBench(dataDir, opts.requests);

    const scenarios: Scenario[] = [
      { name: 'list first page (limit 100)', path: () => '/v1/patients?limit=100&offset=0' },
      { name: 'list random page (limit 100)', path: (i) => `/v1/patients?limit=100&offset=${(i * 100) % Math.max(1, opts.patients)}` },
      { name: 'search name prefix (3 letters)', path: (i) => `/v1/patients?q=${encodeURIComponent(pick(lastNamePrefixes, i))}` },
      { name: 'search full name', path: (i) => `/v1/patients?q=${encodeURIComponent(pick(fullNames, i))}` },
      { name: 'search phone substring (4 digits)', path: (i) => `/v1/patients?q=${pick(phones, i).slice(4, 8)}` },
      {
        name: 'search phone formatted "(xxx) xxx"',
        path: (i) => `/v1/patients?q=${encodeURIComponent(`(${pick(phones, i).slice(0, 3)}) ${pick(phones, i).slice(3, 6)}`)}`,
      },
      { name: 'search phone scrambled (4 digits)', path: (i) => `/v1/patients?q=${scrambled(pick(phones, i))}` },
      {
        name: 'search after a write (catch-up)',
        requests: Math.min(opts.requests, 30),
        before: async () => {
          created++;
          await call('POST', '/v1/patients', {
            firstName: 'Bench',
            lastName: `Writer${created}`.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]),
            gender: 'other',
          });
        },
        path: () => '/v1/patients?q=bench',
      },
      ...icd10Scenarios,
      ...drugScenarios,
    ];

    const rows: (LatencySummary & { name: string })[] = [];
    for (const s of scenarios) {
      if (Date.now() > deadline) {
        console.log(`  time limit reached; skipping "${s.name}"`);
        continue;
      }
      for (let w = 0; w < 5; w++) await call('GET', s.path(w));
      const count = s.requests ?? opts.requests;
      const concurrency = s.before ? 1 : opts.concurrency;
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      const worker = async () => {
        while (next < count && Date.now() < deadline) {
          const i = next++;
          if (s.before) await s.before(i);
          const t0 = performance.now();
          await call('GET', s.path(i));
          latencies.push(performance.now() - t0);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const elapsed = (performance.now() - started) / 1000;
      const summary = latencySummary(latencies, s.before ? undefined : elapsed);
      rows.push({ name: `${s.name}${concurrency === 1 ? ' [serial]' : ''}`, ...summary });
    }

    if (Date.now() < deadline && opts.chartRuns > 0) {
      const chart = {
        webUrl: runtime.outputs.webUrl,
        apiUrl,
        practiceId,
        token,
        patientId: patients[0].id,
        otherPatientIds: patients.slice(1, 1001).map((p) => p.id),
        notes: opts.notes,
        notesOnPatient: Math.min(200, opts.notes),
        runs: opts.chartRuns,
        deadline,
      };
      const seedStart = performance.now();
      await seedChart(chart);
      console.log(
        `  chart: ${opts.notes} notes (${chart.notesOnPatient} on ${chart.patientId}) and every section seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
      );
      const open = await measureChartOpen(chart);
      console.log(`  chart open in Chromium: ${open.runsMs.map((t) => t.toFixed(0)).join(', ')} ms`);
      console.log(
        `  its API calls (last run, slowest first): ${open.apiCalls
          .slice(0, 6)
          .map((c) => `${c.path} ${c.ms.toFixed(0)} ms`)
          .join('; ')}`,
      );
      budgetLines.push(timingLine(`Chart open, median of ${open.runsMs.length} (${opts.notes} notes, full chart)`, open.medianMs, BUDGETS.chartOpenMs));
    } else {
      console.log('  time limit reached (or --chart-runs 0); chart open not measured');
    }

    if (Date.now() < deadline) {
      const chat = await measureSmsChatLatency(runtime.outputs.webUrl, 20);
      console.log(
        `  inbound text → shown in the open SMS chat in Chromium: p50 ${chat.p50.toFixed(0)} ms, p95 ${chat.p95.toFixed(0)} ms over ${chat.count} texts`,
      );
      budgetLines.push(timingLine(`Inbound text → open SMS chat in Chromium p95 (${chat.count} texts)`, chat.p95, SMS_CHAT_BUDGET_P95_MS));
    }

    if (Date.now() < deadline) {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${apiUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, body: await res.json().catch(() => undefined) };
      };
      console.log(formatPipelineTiming(await measureScribePipeline(call, runtime.outputs.webUrl)).replace(/^/gm, '  '));
    }

    const pad = (v: string, n: number) => v.padStart(n);
    console.log(`${'scenario'.padEnd(44)}${pad('n', 6)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}${pad('p99 ms', 9)}${pad('req/s', 9)}`);
    for (const r of rows) {
      console.log(
        `${r.name.padEnd(44)}${pad(String(r.count), 6)}${pad(r.p50.toFixed(1), 9)}${pad(r.p95.toFixed(1), 9)}${pad(r.p99.toFixed(1), 9)}${pad(r.requestsPerSecond === undefined ? '-' : r.requestsPerSecond.toFixed(0), 9)}`,
      );
    }
  } finally {
    await runtime.stop();
    if (opts.dataDir) console.log(`  data kept in ${dataDir} (--data-dir ${dataDir} reuses it)`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\nLive notifications: write → subscriber through the change stream (its own runtime)…');
  const stream = await measureStreamLatency({ notifications: 50 });
  console.log(`  p50 ${stream.p50Ms.toFixed(1)} ms, p95 ${stream.p95Ms.toFixed(1)} ms over ${stream.samples} events`);
  budgetLines.push(timingLine(`Live notification write → subscriber p95 (${stream.samples} events)`, stream.p95Ms, STREAM_LATENCY_BUDGET_P95_MS));
  console.log(
    `Inbound text (sandbox carrier, SNS handler) → subscriber: p50 ${stream.inbound.p50Ms.toFixed(1)} ms, p95 ${stream.inbound.p95Ms.toFixed(1)} ms over ${stream.inbound.samples} texts`,
  );
  budgetLines.push(timingLine(`Inbound text → subscriber p95 (${stream.inbound.samples} texts)`, stream.inbound.p95Ms, STREAM_LATENCY_BUDGET_P95_MS));
  console.log('\nCopilot: question → first streamed token through the ai function URL (its own runtime)…');
  const copilot = await measureCopilotFirstToken({ samples: 30 });
  console.log(
    `  ${copilot.model}: first token p50 ${copilot.firstToken.p50Ms.toFixed(1)} ms, p95 ${copilot.firstToken.p95Ms.toFixed(1)} ms; whole reply p50 ${copilot.done.p50Ms.toFixed(1)} ms over ${copilot.samples} questions`,
  );
  budgetLines.push(timingLine(`Copilot first token p95 (${copilot.samples} questions)`, copilot.firstToken.p95Ms, COPILOT_FIRST_TOKEN_BUDGET_P95_MS));
  if (opts.fhirPatients > 0) {
    console.log('\nWhole-practice FHIR export (its own runtime)…');
    await measureFhirBulkExport({ patients: opts.fhirPatients, notesPerPatient: 2, maxSeconds: 900 });
  }
  console.log("\nBundling the group Lambdas with the stack's esbuild options…");
  budgetLines.unshift(...(await lambdaLines()), ...webAndStackLines());
  console.log(`\nBudgets\n${formatLines(budgetLines)}`);
}

async function signIn(cognitoEndpoint: string, region: string, clientId: string): Promise<string> {
  const cognito = new CognitoIdentityProviderClient({ endpoint: cognitoEndpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const out = await cognito.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: 'provider@demo.tidewell.local', PASSWORD: DEMO_PASSWORD },
    }),
  );
  const token = out.AuthenticationResult?.IdToken;
  if (!token) throw new Error('Sign-in returned no ID token');
  return token;
}

run().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
