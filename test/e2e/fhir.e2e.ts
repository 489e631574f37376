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
  // An in-person visit with this provider, at a slot of this run's own.
  const me = await apiAs(page, 'GET', '/v1/practices/users/me');
  const visitStart = new Date(Date.UTC(2035, 0, 1) + (parseInt(run, 36) % 40_000) * 3 * 3_600_000).toISOString();
  const visit = { patientId: source, providerId: me.json.userId, appointmentTypeId: 'apt-demo-follow-up', bookingLocationId: 'loc-demo-main', visitType: 'in_person', start: visitStart, durationMinutes: 30 };
  expect((await apiAs(page, 'POST', '/v1/appointments', visit)).status).toBe(201);
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
  // The same provider is already booked then (with the exported patient): the visit is left out, in the calendar's words.
  await expect(dialog.getByRole('row', { name: new RegExp(`Appointment: Follow-up visit on ${visitStart.slice(0, 10)} with Daniel Okafor Left out: Daniel Okafor is already booked on`) })).toBeVisible();
  await expect(dialog.getByRole('row', { name: "Location: Main office Left out: Its appointments are booked at this practice's location of that name" })).toBeVisible();
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
