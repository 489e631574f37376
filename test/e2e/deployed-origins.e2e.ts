import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startProductionOrigins, type ProductionOrigins } from '../support/production-origins.js';
import { drawer, openChart, section } from './support/chart.js';
import { PROVIDER, signIn } from './support/sign-in.js';

/** Allergies are added to this patient on every run (as in a11y-unsaved-work.e2e.ts). */
const PATIENT = 'pat-0016';
const SHOTS = 'test-results/screenshots/deployed-origins';

let origins: ProductionOrigins;
let certificates: string;

/*
 * Deployed, the app (CloudFront) and the API, Cognito and AppSync are different origins, and
 * Chromium asks the API's CORS preflight before each call; the local runtime serves all on one
 * origin, where none of that happens. Here the same server sits behind a web origin and an API
 * origin that answers preflights from the HTTP API's own settings, and a provider works as usual.
 */
test.beforeAll(async () => {
  certificates = mkdtempSync(join(tmpdir(), 'tw-origins-'));
  origins = await startProductionOrigins(String(test.info().project.use.baseURL), certificates);
});

test.afterAll(async () => {
  await origins?.stop();
  rmSync(certificates, { recursive: true, force: true });
});

test('a provider signs in, reads a chart and saves to it with the API on an origin of its own, as deployed', async ({ browser }) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ baseURL: origins.webOrigin, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const refused: string[] = [];
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText;
    // The page's own cancellations are not refusals: a screen left (or reloaded) before its answer
    // came aborts the request. Chromium fails a CORS or CSP refusal as net::ERR_FAILED instead.
    if (reason === 'net::ERR_ABORTED') return;
    refused.push(`${request.method()} ${new URL(request.url()).pathname}: ${reason}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /CORS|Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  const apiCalls: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin === origins.apiOrigin && url.pathname.startsWith('/api/')) apiCalls.push(`${response.request().method()} ${response.status()}`);
  });

  await signIn(page, PROVIDER, '/home');
  await expect(page.getByTestId('practice-name')).toHaveText('Tidewell Demo Clinic');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  await openChart(page, PATIENT);
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible();
  const name = `Cross-origin allergy ${Date.now() % 100000}`;
  await section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }).click();
  const form = drawer(page, 'Add Allergy');
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toHaveCount(0);
  await expect(section(page, 'Allergies').getByRole('listitem', { name })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/01-chart-saved.png` });

  // Read back through the API origin after a reload: the allergy was stored, not only shown.
  await page.reload();
  await expect(section(page, 'Allergies').getByRole('listitem', { name })).toBeVisible();

  // Chromium asked before the calls (a preflight is not among a page's own requests).
  expect(origins.preflights.filter((path) => path.startsWith('/api/')).length).toBeGreaterThan(0);
  expect(apiCalls).toEqual(expect.arrayContaining(['GET 200', expect.stringMatching(/^POST 20[01]$/)]));
  expect(refused).toEqual([]);
  await context.close();
});
