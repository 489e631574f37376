import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// E2E_PORT lets two runs on one machine use separate servers.
const PORT = Number(process.env.E2E_PORT ?? 3210);
/** Set TIDEWELL_E2E_URL to run against an already running `npm start` instead of starting one. */
const externalUrl = process.env.TIDEWELL_E2E_URL;
const baseURL = externalUrl ?? `http://localhost:${PORT}`;

// Workers re-evaluate this file; the data folder is chosen once, by the runner, and inherited.
process.env.TIDEWELL_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'tidewell-e2e-'));

/*
 * The newcomer journey (newcomer.e2e.ts) walks the seeded week of clinic life, which the other
 * files must not see (they count what they find), so it has an `npm start` of its own with
 * TIDEWELL_DEMO_WEEK=1 on E2E_DEMO_PORT (default E2E_PORT + 1000), in the data folder
 * `<TIDEWELL_E2E_DATA_DIR>-week`. It starts only when the run includes the journey (no file named,
 * or newcomer named): `playwright test test/e2e/notes.e2e.ts` does not pay for it.
 * Playwright starts its web servers one after the other, each waiting for its url, so this one is
 * listed first and has no url: it seeds while the other starts and the first files run, and the
 * journey itself waits for its /local/ready (which answers 200 once the seed is done).
 * Against TIDEWELL_E2E_URL (a running `npm start` with its week) the journey runs there.
 * Decided once, by the runner; workers inherit the answer.
 */
const named = process.argv.slice(2).filter((a) => /\.e2e(\.ts)?(:\d+)*$/.test(a) || a.includes('.e2e.'));
process.env.TIDEWELL_E2E_NEWCOMER ??= named.length === 0 || named.some((a) => a.includes('newcomer')) ? '1' : '0';
const newcomer = process.env.TIDEWELL_E2E_NEWCOMER === '1';
const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? PORT + 1000);
process.env.TIDEWELL_E2E_DEMO_URL ??= externalUrl ?? `http://localhost:${DEMO_PORT}`;
const demoDataDir = `${process.env.TIDEWELL_E2E_DATA_DIR}-week`;

const demoServer = {
  command: 'npm start',
  cwd: '../..',
  timeout: 300_000,
  reuseExistingServer: false,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  name: 'demo week',
  env: { PORT: String(DEMO_PORT), TIDEWELL_DATA_DIR: demoDataDir, TIDEWELL_DEMO_WEEK: '1', TIDEWELL_AI_LOCAL_ASSISTANT: '1' },
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: '../../test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL,
    // Tests save the screenshots worth looking at under their own names; a failure adds its own.
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    viewport: { width: 1360, height: 860 },
    timezoneId: 'America/Chicago',
    locale: 'en-US',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: '**/newcomer.e2e.ts' },
    ...(newcomer
      ? [{ name: 'newcomer', testMatch: '**/newcomer.e2e.ts', use: { browserName: 'chromium' as const, baseURL: process.env.TIDEWELL_E2E_DEMO_URL } }]
      : []),
  ],
  webServer: externalUrl
    ? undefined
    : [
        ...(newcomer ? [demoServer] : []),
        {
          command: 'npm start',
          cwd: '../..',
          url: `${baseURL}/config.json`,
          // The first start builds the web app before it listens.
          timeout: 300_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
          // The Copilot answers from the local rule-based assistant (infra/local/ai), labelled as such.
          // The practice export goes one patient a batch, so its progress is on screen for a few polls.
          // The tests count what they find (no open tasks, one conversation): no week of clinic life.
          env: {
            PORT: String(PORT),
            TIDEWELL_DATA_DIR: process.env.TIDEWELL_E2E_DATA_DIR,
            TIDEWELL_AI_LOCAL_ASSISTANT: '1',
            FHIR_BULK_BATCH_SIZE: '1',
            TIDEWELL_DEMO_WEEK: process.env.TIDEWELL_DEMO_WEEK ?? '0',
          },
          gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
        },
      ],
});
