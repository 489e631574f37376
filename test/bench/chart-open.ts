/**
 * Chart open in Chromium: a practice with 10,000 notes (200 on one patient) and that patient's
 * full chart (every section with items); the time from loading the chart's address in a signed-in
 * browser until every health-summary card shows its items and the notes timeline its rows.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { chromium } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Note } from '../../shared/notes/note-schema.js';
import { documentClient } from '../../functions/lib/table/client.js';
import { tableName } from '../../functions/lib/table/definition.js';
import { toItem } from '../../functions/data/notes/note-repository.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';

export interface ChartOpenOptions {
  webUrl: string;
  apiUrl: string;
  practiceId: string;
  token: string;
  /** The patient whose chart is opened, and the others the rest of the notes belong to. */
  patientId: string;
  otherPatientIds: readonly string[];
  notes: number;
  notesOnPatient: number;
  runs: number;
  deadline: number;
}

export interface ChartOpenResult {
  firstMs: number;
  medianMs: number;
  runsMs: number[];
  /** API calls of the last run, slowest first: what the chart waited for. */
  apiCalls: { path: string; ms: number }[];
}

/** One item in every section, created through the API like a user would. */
const CHART_ITEMS: [string, Record<string, unknown>][] = [
  ['allergies', { name: 'Penicillin' }],
  ['allergies', { name: 'Peanuts' }],
  ['diagnoses', { name: 'Essential hypertension', pinned: 0 }],
  ['medications', { productName: 'Lisinopril 10 mg tablet' }],
  ['surgeries', { name: 'Appendectomy' }],
  ['family-history', { diagnosis: 'Type 2 diabetes' }],
  ['social-history', { question: 'Tobacco use', answer: 'Never' }],
  ['general', { name: 'Prefers morning visits' }],
  ['vaccines', { name: 'Influenza, seasonal' }],
  ['freeform-medications', { name: 'Vitamin D 1000 IU' }],
];

async function api(opts: ChartOpenOptions, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${opts.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Fills the chart through the API, then writes the notes as signed notes cloned from one the API created. */
export async function seedChart(opts: ChartOpenOptions): Promise<void> {
  for (const [section, body] of CHART_ITEMS) await api(opts, 'POST', `/v1/patients/${opts.patientId}/${section}`, body);
  const created = (await api(opts, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId: opts.patientId })) as unknown as Note;
  const base = Date.parse('2026-11-01T09:00:00Z');
  const notes: Note[] = [];
  for (let i = 0; i < opts.notes; i++) {
    const at = new Date(base - i * 3_600_000).toISOString();
    const patientId = i < opts.notesOnPatient ? opts.patientId : opts.otherPatientIds[i % opts.otherPatientIds.length];
    notes.push({
      ...created,
      noteId: randomUUID(),
      patientId,
      status: 'SIGNED',
      signed: at,
      signedBy: created.author,
      eventTimestamp: at,
      timestamp: at,
      createdAt: at,
    });
  }
  for (let i = 0; i < notes.length; i += 25) {
    const batch = notes.slice(i, i + 25).map((n) => ({ PutRequest: { Item: toItem(opts.practiceId, n) } }));
    let pending: typeof batch | undefined = batch;
    while (pending?.length) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = out.UnprocessedItems?.[tableName()] as typeof batch | undefined;
    }
  }
}

/** Every card of the health summary shows items and the notes timeline shows rows. */
function chartRendered(expectedCards: number): boolean {
  const cards = [...document.querySelectorAll('.tw-chart__grid > section')];
  const notes = document.querySelectorAll('.tw-notes-list li');
  return cards.length >= expectedCards && cards.every((c) => c.querySelector('.tw-chart-item')) && notes.length > 0;
}

export async function measureChartOpen(opts: ChartOpenOptions): Promise<ChartOpenResult> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const page = await browser.newPage();
    await page.goto(`${opts.webUrl}/#/home`);
    await page.getByLabel('Email').fill('provider@demo.tidewell.local');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('practice-name').waitFor({ timeout: 60_000 });
    const chartUrl = `${opts.webUrl}/#/patients/${opts.patientId}`;
    const runsMs: number[] = [];
    let apiCalls: { path: string; ms: number }[] = [];
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api/')) return;
      const timing = request.timing();
      apiCalls.push({ path: `${request.method()} ${url.pathname.slice(4)}`, ms: timing.responseEnd });
    });
    for (let run = 0; run < opts.runs && Date.now() < opts.deadline; run++) {
      apiCalls = [];
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto(chartUrl);
      await page.waitForFunction(chartRendered, 8, { timeout: 30_000, polling: 'raf' });
      runsMs.push(performance.now() - started);
    }
    const sorted = [...runsMs].sort((a, b) => a - b);
    return { firstMs: runsMs[0], medianMs: sorted[Math.floor(sorted.length / 2)], runsMs, apiCalls: [...apiCalls].sort((a, b) => b.ms - a.ms) };
  } finally {
    await browser.close();
  }
}
