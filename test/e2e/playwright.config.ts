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
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: externalUrl
    ? undefined
    : {
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
});
