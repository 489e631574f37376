/**
 * Inbound text → shown in an open SMS chat, as a provider sees it: a patient phone replies through
 * the local sandbox carrier (POST /local/carrier/sms, the SNS path's handler) while Chromium has
 * the conversation open, and the time until the text is on screen is measured.
 *
 *   npx tsx test/bench/sms-chat-latency.ts [--url http://localhost:3000] [--samples 20]
 *
 * Needs a running `npm start` (the web app and the local carrier are served by it).
 */
import { chromium } from '@playwright/test';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { latencySummary, type LatencySummary } from './stats.js';

const PRACTICE_PHONE = '+15415550100';
/** Imani Johnson (pat-0013), a demo patient with a mobile phone. */
const PATIENT_PHONE = '+14045550113';
/** The live feed's budget (README, stream latency): p95 ≤ 1 s from write to subscriber. */
export const SMS_CHAT_BUDGET_P95_MS = 1_000;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/** Texts a patient phone sends through the sandbox carrier while Chromium shows their chat; the time until each is on screen. */
export async function measureSmsChatLatency(baseUrl: string, samples: number): Promise<LatencySummary> {
  const base = baseUrl.replace(/\/$/, '');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/#/messages/sms/${encodeURIComponent(PATIENT_PHONE)}/${encodeURIComponent(PRACTICE_PHONE)}`);
    await page.getByLabel('Email').fill('provider@demo.tidewell.local');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByPlaceholder('Type message...').waitFor({ timeout: 60_000 });
    // The live feed connects once the first screen is up; the first reply waits for it.
    await page.waitForTimeout(3_000);

    const latencies: number[] = [];
    const tag = Date.now().toString(36);
    for (let i = 0; i < samples; i++) {
      const text = `Bench reply ${tag} ${i}`;
      const shown = page.getByTestId('sms-message').filter({ hasText: text }).waitFor({ timeout: 15_000 });
      const start = performance.now();
      const response = await fetch(`${base}/local/carrier/sms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: PATIENT_PHONE, to: PRACTICE_PHONE, text }),
      });
      if (response.status !== 202) throw new Error(`POST /local/carrier/sms answered ${response.status}`);
      await shown;
      latencies.push(performance.now() - start);
    }
    return latencySummary(latencies);
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const samples = Math.max(1, Math.min(Number(arg('samples', '20')) || 20, 200));
  const summary = await measureSmsChatLatency(arg('url', 'http://localhost:3000'), samples);
  console.log(
    `Inbound text → shown in the open chat: p50 ${summary.p50.toFixed(0)} ms, p95 ${summary.p95.toFixed(0)} ms over ${summary.count} texts (budget p95 ${SMS_CHAT_BUDGET_P95_MS} ms)`,
  );
  if (summary.p95 > SMS_CHAT_BUDGET_P95_MS) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  void main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
