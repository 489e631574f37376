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
 * files must not see (they count what they find), so it has a second `npm start` of its own with
 * TIDEWELL_DEMO_WEEK=1, on E2E_DEMO_PORT and a data folder of its own. That server starts, in
 * parallel with the first, only when the run includes the journey: a run of other named files
 * (`playwright test test/e2e/notes.e2e.ts`) does not pay for it. Decided once, by the runner.
 * Against TIDEWELL_E2E_URL (a running `npm start` with its week) the journey runs there.
 */
const named = process.argv.slice(2).filter((a) => /\.e2e(\.ts)?$/.test(a));
process.env.TIDEWELL_E2E_NEWCOMER ??= (named.length === 0 || named.some((a) => a.includes('newcomer'))) ? '1' : '0';
const newcomer = process.env.TIDEWELL_E2E_NEWCOMER === '1';
const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? PORT + 1000);
if (newcomer && !externalUrl) process.env.TIDEWELL_E2E_DEMO_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'tidewell-e2e-week-'));

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
    screenshot: 'on',
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
    ...(newcomer ? [{ name: 'newcomer', testMatch: '**/newcomer.e2e.ts', use: { browserName: 'chromium' as const, baseURL: externalUrl ?? `http://localhost:${DEMO_PORT}` } }] : []),
  ],
  webServer: externalUrl
    ? undefined
    : [
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
          env: { PORT: String(PORT), TIDEWELL_DATA_DIR: process.env.TIDEWELL_E2E_DATA_DIR, TIDEWELL_AI_LOCAL_ASSISTANT: '1', FHIR_BULK_BATCH_SIZE: '1', TIDEWELL_DEMO_WEEK: process.env.TIDEWELL_DEMO_WEEK ?? '0' },
          gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
        },
        ...(newcomer
          ? [
              {
                command: 'npm start',
                cwd: '../..',
                url: `http://localhost:${DEMO_PORT}/config.json`,
                timeout: 300_000,
                reuseExistingServer: false,
                stdout: 'ignore' as const,
                stderr: 'pipe' as const,
                env: { PORT: String(DEMO_PORT), TIDEWELL_DATA_DIR: process.env.TIDEWELL_E2E_DEMO_DATA_DIR!, TIDEWELL_DEMO_WEEK: '1' },
                gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
              },
            ]
          : []),
      ],
});
