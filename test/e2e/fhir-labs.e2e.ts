import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { openChart, openNewestLabOrder } from './support/chart.js';
import { labReportBundle } from './support/lab-bundle.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots/fhir';

test("a lab report imported from another system's bundle opens read-only: its results, flags, dates, conclusion and PDF, no order form", async ({ page }) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  await signIn(page, PROVIDER);
  const created = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Lena', lastName: `Labimport${run}`, gender: 'female', dob: '1968-09-12' });
  const patientId = String(created.json.id);
  const file = join(tmpdir(), `lab-bundle-${run}.json`);
  writeFileSync(file, JSON.stringify(await labReportBundle(run)));

  await openChart(page, patientId);
  await page.getByRole('region', { name: 'Record transfer' }).getByRole('button', { name: 'Import FHIR bundle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import FHIR bundle' });
  await dialog.getByLabel('Choose a FHIR export (.zip or .json)').setInputFiles(file);
  await expect(dialog.getByRole('status')).toContainText('1 to add, 0 already in this chart');
  await expect(dialog.getByRole('row', { name: /Lab report: Basic metabolic panel on 2025-06-02 \(2 results\) Add/ })).toBeVisible();
  await expect(dialog.getByRole('row', { name: /Lab result: Potassium 5.6 mmol\/L on 2025-06-02 .*Brought in with its lab report/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/lab-import-preview.png` });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('Imported 1 item into this chart.')).toBeVisible();

  // The chart's notes list shows signed notes of one type: lab orders.
  await openNewestLabOrder(page);
  const win = page.getByRole('dialog', { name: new RegExp(`^Lab Order · Lena Labimport${run}`) });
  await expect(win).toBeVisible();
  await expect(win.getByText('Imported lab report: a record of results from another system.')).toBeVisible();
  // Nothing to order and nothing sent to a lab: no test choices, no order button, no waiting.
  await expect(win.getByRole('button', { name: 'Order lab' })).toHaveCount(0);
  await expect(win.getByRole('checkbox')).toHaveCount(0);
  await expect(win.getByText('Waiting for results')).toHaveCount(0);
  await expect(win.getByText('Coastal Reference Lab')).toBeVisible();
  const table = win.getByRole('table', { name: 'Basic metabolic panel' });
  await expect(table.getByRole('row', { name: /Potassium 5.6 mmol\/L High 3.5–5.1 6\/3\/2025/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Sodium 139 mmol\/L 135–145/ })).not.toHaveClass(/abnormal/);
  await expect(table.locator('tr.tw-lab__row--abnormal')).toHaveCount(1);
  await expect(win.getByRole('region', { name: 'Conclusion of Basic metabolic panel' })).toContainText('Potassium mildly high; repeat in one week.');
  const pdf = win.getByRole('region', { name: 'Lab report file' });
  await expect(pdf).toBeVisible();
  await expect(pdf.locator('[data-viewer="pdf"] canvas[aria-label="bmp-report.pdf, page 1 of 1"]')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${SHOTS}/lab-imported-note.png` });

  // By keyboard: Print gives the report on the letterhead.
  await win.getByRole('button', { name: 'Print' }).focus();
  const downloading = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await downloading).suggestedFilename()).toMatch(/^lab-report-.*\.pdf$/);
});
