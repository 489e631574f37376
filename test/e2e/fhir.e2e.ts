import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { expect } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
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
  const visit = {
    patientId: source,
    providerId: me.json.userId,
    appointmentTypeId: 'apt-demo-follow-up',
    bookingLocationId: 'loc-demo-main',
    visitType: 'in_person',
    start: visitStart,
    durationMinutes: 30,
  };
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
  const bundle = JSON.parse(new TextDecoder().decode(unzipSync(new Uint8Array(readFileSync(saved)))['bundle.json'])) as {
    type: string;
    entry: { resource: { resourceType: string } }[];
  };
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
  await expect(
    dialog.getByRole('row', {
      name: new RegExp(`Appointment: Follow-up visit on ${visitStart.slice(0, 10)} with Daniel Okafor Left out: Daniel Okafor is already booked on`),
    }),
  ).toBeVisible();
  await expect(
    dialog.getByRole('row', { name: "Location: Main office Left out: Its appointments are booked at this practice's location of that name" }),
  ).toBeVisible();
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

test('a form response and a fax brought in from another record open read-only in the chart: the answers without IntakeQ actions, the fax with its PDF', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  await signIn(page, PROVIDER);
  const patient = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Iris', lastName: `Imported${run}`, gender: 'female', dob: '1975-05-05' });
  const patientId = String(patient.json.id);
  const pdf = readFileSync(join('test', 'fixtures', 'files', 'lab-report.pdf')).toString('base64');
  const bundle = {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      {
        resource: {
          resourceType: 'QuestionnaireResponse',
          identifier: { system: 'https://ehr.example/qr', value: `qr-${run}` },
          status: 'completed',
          questionnaire: 'https://ehr.example/Questionnaire/intake',
          authored: '2025-06-03T10:00:00Z',
          extension: [{ url: 'https://tidewell.app/fhir/StructureDefinition/form-name', valueString: 'Outside intake' }],
          item: [
            { linkId: 'concern', text: 'What brings you in?', answer: [{ valueString: `Back pain ${run}` }] },
            { linkId: 'smoker', text: 'Do you smoke?', answer: [{ valueBoolean: false }] },
          ],
        },
      },
      {
        resource: {
          resourceType: 'Communication',
          identifier: [{ system: 'https://ehr.example/fax', value: `fax-${run}` }],
          status: 'completed',
          received: '2025-06-02T09:00:00Z',
          medium: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'FAXWRIT' }] }],
          note: [{ text: 'From fax +15415557788' }],
          payload: [
            { contentString: `Lab results from Riverside ${run}` },
            { contentAttachment: { contentType: 'application/pdf', title: 'lab-report.pdf', data: pdf } },
          ],
        },
      },
    ],
  };
  const imported = await apiAs(page, 'POST', `/v1/patients/${patientId}/fhir-import`, { bundle });
  expect(imported.status).toBe(200);
  expect(imported.json.added).toBe(2);

  await openChart(page, patientId);
  await page.getByRole('button', { name: / Status$/ }).click();
  await page.getByRole('option', { name: 'All statuses' }).click();
  const openNote = async (type: string) => {
    await page.getByRole('button', { name: / Type$/ }).click();
    await page.getByRole('option', { name: type, exact: true }).click();
    await page.getByRole('list', { name: 'Notes' }).getByRole('button').first().click();
    return page.locator('.tw-note-window').last();
  };

  const form = await openNote('Form');
  await expect(form.getByRole('heading', { name: 'Outside intake' })).toBeVisible();
  await expect(form.getByText('submitted (imported)')).toBeVisible();
  const answers = form.getByRole('list', { name: 'Answers' });
  await expect(answers.getByText(`Back pain ${run}`)).toBeVisible();
  await expect(answers.getByText('No', { exact: true })).toBeVisible();
  // No intake stands behind it: nothing to resend, map or send.
  for (const action of ['Resend Form', 'Add to Health Summary', 'Send form', 'Save', 'Sign'])
    await expect(form.getByRole('button', { name: action, exact: true })).toHaveCount(0);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(answers).toBeVisible();
    await expectAccessible(page, `imported form note window (${viewport.width}px)`);
    await page.screenshot({ path: `${SHOTS}/imported-form-${viewport.width}.png` });
  }
  await form.getByRole('button', { name: 'Close note' }).click();
  await expect(page.locator('.tw-note-window')).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 800 });
  const fax = await openNote('Fax');
  await expect(fax.getByText(`Lab results from Riverside ${run}`)).toBeVisible();
  const pages = fax.getByRole('region', { name: 'Faxed pages' });
  await expect(pages).toBeVisible();
  await expect(pages.getByRole('img', { name: /^lab-report\.pdf, page 1 of / })).toBeVisible({ timeout: 30_000 });
  for (const action of ['Save', 'Sign']) await expect(fax.getByRole('button', { name: action, exact: true })).toHaveCount(0);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(pages).toBeVisible();
    await expectAccessible(page, `imported fax note window (${viewport.width}px)`);
    await page.screenshot({ path: `${SHOTS}/imported-fax-${viewport.width}.png` });
  }
});

test("another EHR's chart comes in through the import dialog: a long preview that reads at desktop and phone width, then the chart's sections", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  await signIn(page, PROVIDER);
  const patient = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Marisol', lastName: `Quintero${run}`, gender: 'female', dob: '1967-08-21' });
  const patientId = String(patient.json.id);
  const fixture = join('test', 'fixtures', 'fhir', 'synthea-patient.json');

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await openChart(page, patientId);
    await page.getByRole('region', { name: 'Record transfer' }).getByRole('button', { name: 'Import FHIR bundle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import FHIR bundle' });
    await dialog.getByLabel('Choose a FHIR export (.zip or .json)').setInputFiles(fixture);
    await expect(dialog.getByRole('status')).toContainText('Marisol44 Quintero: 27 to add, 0 already in this chart');
    await expect(dialog.getByRole('row', { name: /Diagnosis: Prediabetes Add/ })).toBeVisible();
    await expect(dialog.getByRole('row', { name: /Claim on 2024-02-12 Left out: Billing records are not imported/ })).toBeVisible();
    await expectAccessible(page, `another EHR's import preview (${viewport.width}px)`);
    await page.screenshot({ path: `${SHOTS}/foreign-preview-${viewport.width}.png` });
    if (viewport.width === 1280) {
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      continue;
    }
    // By keyboard: the Import button is reached and pressed without the mouse.
    const importButton = dialog.getByRole('button', { name: 'Import', exact: true });
    await importButton.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Imported 27 items into this chart.')).toBeVisible();
  }

  await page.setViewportSize({ width: 1280, height: 800 });
  await openChart(page, patientId);
  await expect(section(page, 'Allergies').getByText('Peanut')).toBeVisible();
  await expect(section(page, 'Medical Conditions').getByText('Prediabetes')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/foreign-chart.png`, fullPage: true });
});
