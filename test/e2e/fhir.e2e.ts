import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { expect } from '@playwright/test';
import { openChart, section } from './support/chart.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots/fhir';

test('a provider exports a chart from the chart page and imports it into another chart after a preview', async ({ page }) => {
  const run = Date.now().toString(36);
  await signIn(page, PROVIDER);
  const from = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Ezra', lastName: `Export${run}`, gender: 'male', dob: '1970-01-01' });
  const source = String(from.json.id);
  expect((await apiAs(page, 'POST', `/v1/patients/${source}/allergies`, { name: 'Latex', severity: 'moderate' })).status).toBe(201);
  expect((await apiAs(page, 'POST', `/v1/patients/${source}/surgeries`, { name: 'Tonsillectomy', date: '1980-06-01' })).status).toBe(201);
  const to = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Ezra', lastName: `Import${run}`, gender: 'male', dob: '1970-01-01' });
  const target = String(to.json.id);

  await openChart(page, source);
  const transfer = page.getByRole('region', { name: 'Record transfer' });
  const downloading = page.waitForEvent('download');
  await transfer.getByRole('button', { name: 'Export chart (FHIR)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^chart-${source}-.*\\.zip$`));
  const saved = join(tmpdir(), `fhir-${run}.zip`);
  await download.saveAs(saved);
  const bundle = JSON.parse(new TextDecoder().decode(unzipSync(new Uint8Array(readFileSync(saved)))['bundle.json'])) as { type: string; entry: { resource: { resourceType: string } }[] };
  expect(bundle.type).toBe('collection');
  expect(bundle.entry.map((e) => e.resource.resourceType)).toEqual(expect.arrayContaining(['Patient', 'AllergyIntolerance', 'Procedure']));
  await expect(transfer.getByRole('status')).toContainText('Chart exported:');

  await openChart(page, target);
  await page.getByRole('region', { name: 'Record transfer' }).getByRole('button', { name: 'Import FHIR bundle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import FHIR bundle' });
  await dialog.getByLabel('Choose a FHIR export (.zip or .json)').setInputFiles(saved);
  await expect(dialog.getByRole('status')).toContainText(`Ezra Export${run}: 2 to add, 0 already in this chart`);
  await expect(dialog.getByRole('row', { name: /Allergy: Latex Add/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/import-preview.png` });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Imported 2 items into this chart.')).toBeVisible();
  await expect(section(page, 'Allergies').getByText('Latex')).toBeVisible();

  // The same file again: nothing left to add.
  await page.getByRole('region', { name: 'Record transfer' }).getByRole('button', { name: 'Import FHIR bundle' }).click();
  await dialog.getByLabel('Choose a FHIR export (.zip or .json)').setInputFiles(saved);
  await expect(dialog.getByRole('status')).toContainText('0 to add, 2 already in this chart');
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
