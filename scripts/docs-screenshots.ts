/**
 * `npm run docs:screenshots`: the README's two pictures, taken from the seeded demo so they stay
 * current. Starts its own runtime with the week of clinic life in a temporary data folder, signs in
 * as the provider in Chromium (/usr/bin/chromium, or CHROMIUM_PATH) and writes
 * docs/images/dashboard.png and docs/images/chart-note.png. TIDEWELL_URL=http://localhost:3000 uses
 * a running `npm start` of a freshly seeded folder instead.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { startLocalRuntime } from '../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../infra/local/seed/demo-users.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'images');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-screenshots-'));
  process.env.TIDEWELL_LOG ??= 'silent';
  const external = process.env.TIDEWELL_URL;
  const runtime = external
    ? { outputs: { webUrl: external.replace(/\/$/, '') }, stop: async () => {} }
    : await startLocalRuntime({ dataDir, port: 0, serveWeb: true, seed: true, demoWeek: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, timezoneId: 'America/Chicago', locale: 'en-US' });
    await page.goto(`${runtime.outputs.webUrl}/#/home`);
    await page.getByLabel('Email').fill('provider@demo.tidewell.local');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('practice-name').waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    // Each widget shows a spinner until its list arrives.
    await page.waitForFunction(() => document.querySelectorAll('.tw-spinner').length === 0, undefined, { timeout: 60_000 });
    await page.screenshot({ path: join(OUT, 'dashboard.png') });

    await page.goto(`${runtime.outputs.webUrl}/#/patients/pat-0002`);
    await page.getByRole('heading', { name: 'Health Summary' }).waitFor({ timeout: 60_000 });
    await page.getByText('Essential hypertension, not at goal').first().click();
    await page.getByRole('dialog').first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(OUT, 'chart-note.png') });
    for (const name of ['dashboard.png', 'chart-note.png'])
      console.log(`${join('docs', 'images', name)}  ${Math.round(statSync(join(OUT, name)).size / 1024)} KB`);
  } finally {
    await browser.close();
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
