import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { apiSessionOf, callApi, type ApiSession } from './support/api-as.js';
import { PROVIDER, signIn } from './support/sign-in.js';
import { openNewestLabOrder } from './support/chart.js';

const SHOTS = 'test-results/screenshots';
const ADMIN = 'admin@demo.tidewell.local';
const FLAG = 'trending_labs';

let restore: { session: ApiSession; previous: boolean } | undefined;
test.afterEach(async ({ request }) => {
  if (!restore) return;
  const { session, previous } = restore;
  restore = undefined;
  expect((await callApi(request, session, 'PUT', '/v1/practices/feature-gates', { flags: { [FLAG]: previous } })).status).toBe(200);
});

test('a provider orders a lab, the results arrive with abnormal values marked, one analyte trends, and the report prints', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  // trending_labs on for the practice (an admin's setting), back as it was afterwards.
  const adminPage = await browser.newPage();
  await signIn(adminPage, ADMIN, '/home');
  const admin = await apiSessionOf(adminPage);
  const before = await callApi(request, admin, 'GET', '/v1/practices/feature-gates');
  restore = { session: admin, previous: (before.json as { flags: Record<string, boolean> }).flags[FLAG] === true };
  expect((await callApi(request, admin, 'PUT', '/v1/practices/feature-gates', { flags: { [FLAG]: true } })).status).toBe(200);
  await adminPage.close();

  await signIn(page, PROVIDER, '/patients/pat-0003');
  await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
  await page.keyboard.press('Control+K');
  await page.keyboard.type('New Interaction');
  await page.getByRole('menuitem', { name: 'New Interaction', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Lab Order', exact: true }).click();
  const win = page.getByRole('dialog', { name: /^Lab Order · Aisha Rahman/ });
  await expect(win).toBeVisible();
  // Nothing chosen: the order is not sent.
  await win.getByRole('button', { name: 'Order lab' }).click();
  await expect(win.getByRole('alert')).toHaveText('Choose at least one test');
  await win.getByText('Comprehensive metabolic panel (CMP)').click();
  await win.getByText('Complete blood count (CBC) with automated differential').click();
  await page.screenshot({ path: `${SHOTS}/labs-01-order.png` });
  await win.getByRole('button', { name: 'Order lab' }).click();
  await expect(win.frameLocator('iframe').getByRole('heading', { name: 'Order submitted!' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/labs-02-submitted.png` });
  // The result screen closes the note after its delay.
  await expect(win).toHaveCount(0, { timeout: 10_000 });

  // The lab's results arrive: the ordering provider is told (LAB_RESULTS), live.
  await expect(page.getByRole('alertdialog', { name: 'New lab results' })).toBeVisible({ timeout: 30_000 });
  // The chart lists the delivered lab order; opened, it shows the order and the lab's results.
  await openNewestLabOrder(page, { delivered: true });
  const lab = page.getByRole('dialog', { name: /^Lab Order · Aisha Rahman/ });
  await expect(lab.getByText("Health Gorilla's local stand-in").first()).toBeVisible();
  const cmp = lab.getByRole('table', { name: 'Comprehensive metabolic panel (CMP)' });
  await expect(cmp).toBeVisible({ timeout: 30_000 });
  await expect(lab.getByRole('table', { name: 'Complete blood count (CBC) with automated differential' })).toBeVisible();
  // Out-of-range values are marked (flag text and the row's emphasis), in range ones are not.
  const flagged = lab.locator('tr.tw-lab__row--abnormal');
  expect(await flagged.count()).toBeGreaterThanOrEqual(4);
  await expect(flagged.first().locator('.tw-lab__flag')).toHaveText(/High|Low/);
  // The patient's lab table lists this delivered lab (orders still at the lab and deleted ones are left out).
  const table = lab.getByRole('table', { name: 'Lab results for this patient' });
  await expect(table.getByRole('row').filter({ hasText: 'This note' })).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/labs-03-results.png` });

  // The trend of one analyte: its numbers in the spec's formatting.
  await cmp.getByRole('button', { name: 'Trend of Glucose' }).click();
  const trend = page.getByRole('dialog', { name: 'Glucose over time' });
  await expect(trend.getByRole('img', { name: /Glucose trend/ })).toBeVisible();
  const values = await trend.getByRole('table').locator('tbody td:nth-child(2)').allTextContents();
  expect(values.length).toBeGreaterThanOrEqual(1);
  // Glucose is between 10 and 1000 mg/dL: one decimal.
  for (const v of values) expect(v).toMatch(/^\d{2,3}\.\d$/);
  await page.screenshot({ path: `${SHOTS}/labs-04-trend.png` });
  await page.keyboard.press('Escape');
  await expect(trend).toHaveCount(0);

  // Print: the lab report PDF on the letterhead.
  const download = page.waitForEvent('download');
  await lab.getByRole('button', { name: 'Print' }).click();
  const file = await download;
  const path = await file.path();
  expect(file.suggestedFilename()).toMatch(/^lab-report-.+\.pdf$/);
  const bytes = readFileSync(path!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  await file.saveAs(`${SHOTS}/labs-05-report.pdf`);
});
