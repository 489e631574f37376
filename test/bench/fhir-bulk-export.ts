/**
 * `npx tsx test/bench/fhir-bulk-export.ts [--patients 5000 --notes-per-patient 2 --max-seconds 900 --restore-max-seconds 3600]`,
 * and the last part of `npm run bench` (`--fhir-patients`).
 *
 * The whole-practice FHIR export on a fresh local runtime: N synthetic patients, each with a chart
 * (allergy, diagnosis, medication, surgery, family and social history, vaccine) and signed notes,
 * then an admin starts the export and the same state machine the stack deploys runs it batch by
 * batch on the chart group's handler. Prints the time from start to manifest, patients/s, the
 * files and bytes written, and the resources by type. Then the restore drill at that size: the
 * export is downloaded and imported into a second, empty local practice as `npm run practice --
 * import` does, and its time, patients/s and bytes are printed beside the export's.
 */
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { FhirBulkExport, FhirBulkExportView } from '../../shared/chart/fhir-bulk.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { documentClient } from '../../functions/lib/table/client.js';
import { tableName } from '../../functions/lib/table/definition.js';
import { toItem as noteItem } from '../../functions/data/notes/note-repository.js';
import { putPatientsBatch } from '../../functions/data/patients/patient-repository.js';
import { startLocalRuntime } from '../../infra/local/runtime.js';
import { downloadExport, IMPORT_CONCURRENCY, importPractice } from '../../scripts/practice/import-practice.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { syntheticPatients } from './synthetic-patients.js';

const CHART_ITEMS: [string, Record<string, unknown>][] = [
  ['allergies', { name: 'Penicillin', severity: 'severe' }],
  ['diagnoses', { name: 'Essential hypertension', pinned: 0, icd10CodeId: 'I10' }],
  ['medications', { productName: 'Lisinopril', strength: '10', strengthUOM: 'mg' }],
  ['surgeries', { name: 'Appendectomy', date: '2001-05-05' }],
  ['family-history', { diagnosis: 'Type 2 diabetes', family: ['MTH'] }],
  ['social-history', { question: 'Tobacco use', answer: 'Never' }],
  ['vaccines', { name: 'Influenza', cvxCode: '141', date: '2024-10-01' }],
];

export interface FhirBulkBenchOptions {
  patients: number;
  notesPerPatient: number;
  maxSeconds: number;
  /** The restore drill's own bound: the local engine imports far slower than it exports. */
  restoreMaxSeconds?: number;
}

export interface FhirBulkBenchFigures {
  patients: number;
  seconds: number;
  ndjsonBytes: number;
  files: number;
  resources: number;
  /** The same export imported into a second, empty practice (the restore drill), as the CLI runs it. */
  restore: { patients: number; seconds: number; downloadedBytes: number; added: number; failed: number };
}

function parseArgs(argv: string[]): FhirBulkBenchOptions {
  const opts: FhirBulkBenchOptions = { patients: 5000, notesPerPatient: 2, maxSeconds: 900, restoreMaxSeconds: 3600 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    const value = Number(argv[i + 1]);
    if (key === 'patients') opts.patients = Math.max(1, Math.min(value, 50_000));
    else if (key === 'notes-per-patient') opts.notesPerPatient = Math.max(0, Math.min(value, 50));
    else if (key === 'max-seconds') opts.maxSeconds = Math.max(10, value);
    else if (key === 'restore-max-seconds') opts.restoreMaxSeconds = Math.max(10, value);
    else throw new Error(`Unknown option ${argv[i]}`);
  }
  return opts;
}

async function signIn(cognitoEndpoint: string, region: string, clientId: string, email: string): Promise<string> {
  const cognito = new CognitoIdentityProviderClient({ endpoint: cognitoEndpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const out = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD } }),
  );
  return out.AuthenticationResult!.IdToken!;
}

async function batchWrite(items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending: { PutRequest: { Item: Record<string, unknown> } }[] | undefined = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending?.length) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = out.UnprocessedItems?.[tableName()] as typeof pending;
    }
  }
}

/** Seeds a fresh runtime, runs the export to its manifest and prints the figures as it goes. */
export async function measureFhirBulkExport(opts: FhirBulkBenchOptions): Promise<FhirBulkBenchFigures> {
  process.env.TIDEWELL_LOG ??= 'silent';
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-bulk-bench-'));
  console.log(`FHIR practice export bench: ${opts.patients} patients, each with a chart and ${opts.notesPerPatient} signed notes`);
  const runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true });
  try {
    const { cognitoEndpoint, region, userPoolClientId, apiUrl } = runtime.outputs;
    const practiceId = runtime.endpoints.practiceId;
    const [provider, admin] = await Promise.all([
      signIn(cognitoEndpoint, region, userPoolClientId, 'provider@demo.tidewell.local'),
      signIn(cognitoEndpoint, region, userPoolClientId, 'admin@demo.tidewell.local'),
    ]);
    const call = async <T>(token: string, method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
      return JSON.parse(text) as T;
    };

    // One chart and one signed note made through the API, then cloned onto every synthetic patient.
    const seedStart = performance.now();
    const patients = syntheticPatients(opts.patients);
    for (let i = 0; i < patients.length; i += 500) await putPatientsBatch(practiceId, patients.slice(i, i + 500));
    const template = patients[0]!.id;
    for (const [section, body] of CHART_ITEMS) await call(provider, 'POST', `/v1/patients/${template}/${section}`, body);
    const note = await call<Note>(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId: template });
    const signed = await call<Note>(provider, 'POST', `/v1/notes/${note.noteId}/sign`, {
      noteVersion: note.noteVersion,
      data: { text: 'Blood pressure controlled on lisinopril. Continue; recheck in three months.' },
    });
    const chartItems =
      (
        await documentClient().send(
          new QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :s)',
            ExpressionAttributeValues: { ':p': practiceId, ':s': `PATIENT#${template}#` },
          }),
        )
      ).Items ?? [];
    const clones: Record<string, unknown>[] = [];
    for (const p of patients.slice(1)) {
      for (const item of chartItems) {
        const clone = JSON.parse(JSON.stringify(item).split(template).join(p.id)) as Record<string, unknown>;
        // Each patient's items are their own (their ids name the exported resources).
        clones.push({ ...clone, ident: `${String(clone.ident)}-${p.id}`, sk: `${String(clone.sk)}-${p.id}` });
      }
    }
    const base = Date.parse('2026-11-01T09:00:00Z');
    for (const [i, p] of patients.entries()) {
      for (let n = i === 0 ? 1 : 0; n < opts.notesPerPatient; n++) {
        const at = new Date(base - (i * opts.notesPerPatient + n) * 60_000).toISOString();
        clones.push(noteItem(practiceId, { ...signed, noteId: randomUUID(), patientId: p.id, eventTimestamp: at, timestamp: at, createdAt: at, signed: at }));
      }
    }
    await batchWrite(clones);
    console.log(
      `  seeded ${opts.patients} charts (${chartItems.length} chart items each) and ${opts.patients * opts.notesPerPatient} notes in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const started = performance.now();
    const exp = await call<FhirBulkExport>(admin, 'POST', '/v1/practices/fhir-exports');
    const deadline = Date.now() + opts.maxSeconds * 1000;
    let view: FhirBulkExportView;
    for (;;) {
      view = await call<FhirBulkExportView>(admin, 'GET', `/v1/practices/fhir-exports/${exp.exportId}`);
      if (view.status !== 'running') break;
      if (Date.now() > deadline) throw new Error(`The export ran past --max-seconds ${opts.maxSeconds} (${view.patientsDone}/${view.patientsTotal} patients)`);
      process.stdout.write(`\r  exporting: ${view.patientsDone}/${view.patientsTotal} patients`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const seconds = (performance.now() - started) / 1000;
    if (view.status !== 'completed') throw new Error(`The export ${view.status}: ${view.error}`);
    const ndjsonBytes = (view.files ?? []).reduce((sum, f) => sum + f.bytes, 0);
    console.log(
      `\n  export: ${view.patientsDone} patients in ${seconds.toFixed(1)} s (${Math.round(view.patientsDone / seconds)} patients/s), ${view.batchesDone} batches through the state machine`,
    );
    console.log(
      `  size: ${(ndjsonBytes / 1024 / 1024).toFixed(1)} MB of NDJSON in ${view.files?.length ?? 0} files, ${view.resources} resources, ${view.filesCopied} note files copied`,
    );
    console.log(
      `  resources by type: ${Object.entries(view.resourceCounts)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}`,
    );
    const downloaded = join(dataDir, 'export');
    const { bytes: downloadedBytes } = await downloadExport({ apiUrl, token: admin }, exp.exportId, downloaded);
    await runtime.stop();
    const restore = await measureRestore(dataDir, downloaded, downloadedBytes, opts.restoreMaxSeconds ?? 3600);
    return { patients: view.patientsDone, seconds, ndjsonBytes, files: view.files?.length ?? 0, resources: view.resources, restore };
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Imports a downloaded export into a fresh, empty practice through its API and prints the figures. */
async function measureRestore(dataDir: string, exportDir: string, downloadedBytes: number, maxSeconds: number): Promise<FhirBulkBenchFigures['restore']> {
  const target = await startLocalRuntime({
    dataDir: join(dataDir, 'restored'),
    port: 0,
    serveWeb: false,
    seed: true,
    empty: true,
    practiceIdentity: { practiceId: 'prc_bench_restored', slug: 'restored', practiceName: 'Restored Practice' },
  });
  try {
    const { cognitoEndpoint, region, userPoolClientId, apiUrl } = target.outputs;
    const admin = await signIn(cognitoEndpoint, region, userPoolClientId, 'admin@demo.tidewell.local');
    const started = performance.now();
    let done = 0;
    const summary = await importPractice({
      dir: exportDir,
      apiUrl,
      token: admin,
      concurrency: IMPORT_CONCURRENCY,
      out: (line) => {
        if (/^\[\d+\/\d+\]/.test(line)) done += 1;
        if (performance.now() - started > maxSeconds * 1000) throw new Error(`The import ran past --restore-max-seconds ${maxSeconds}`);
        if (done % 100 === 0) process.stdout.write(`\r  importing: ${done} patients`);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const patients = summary.patients - summary.failed.length;
    console.log(
      `\n  import into an empty practice: ${summary.patients} patients in ${seconds.toFixed(1)} s (${Math.round(summary.patients / seconds)} patients/s, ${IMPORT_CONCURRENCY} at a time as the CLI sends them), ${(downloadedBytes / 1024 / 1024).toFixed(1)} MB downloaded and read`,
    );
    console.log(
      `  imported: ${summary.created} patients made, ${summary.added} resources added, ${summary.failed.length} failed${summary.failed.length ? ` (first: ${summary.failed[0]!.error})` : ''}`,
    );
    return { patients, seconds, downloadedBytes, added: summary.added, failed: summary.failed.length };
  } finally {
    await target.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  measureFhirBulkExport(parseArgs(process.argv.slice(2))).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
