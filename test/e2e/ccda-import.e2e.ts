import { join } from 'node:path';
import { expect } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
import { openChart, section } from './support/chart.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots/ccda';
const CCD = join('test', 'fixtures', 'ccda', 'ccd-full.xml');

test('a provider imports a CCD into a chart by keyboard, sees the preview by section, confirms, and reads the new items in the chart', async ({ page }) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  await signIn(page, PROVIDER);
  const created = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Marina', lastName: `Keel${run}`, gender: 'female', dob: '1972-04-14' });
  const patientId = String(created.json.id);

  await openChart(page, patientId);
  const open = page.getByRole('region', { name: 'Record transfer' }).getByRole('button', { name: 'Import C-CDA' });
  await open.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Import C-CDA' });
  await expect(dialog).toBeVisible();
  // The file chooser is the system's own; the input is reached by keyboard and given the file.
  const input = dialog.getByLabel('Choose a C-CDA document (.xml)');
  for (let i = 0; i < 6 && !(await input.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(input).toBeFocused();
  await input.setInputFiles(CCD);
  const status = dialog.getByRole('status');
  await expect(status).toContainText(/^Harbor Clinic Continuity of Care\. Marina Keel: \d+ to add, 0 already in this chart, \d+ left out\.$/);
  const adding = Number(/(\d+) to add/.exec((await status.textContent()) ?? '')![1]);
  expect(adding).toBeGreaterThan(10);
  await expect(dialog.getByRole('row', { name: 'Allergies and Adverse Reactions Allergy: Penicillin G Add' })).toBeVisible();
  await expect(
    dialog.getByRole('row', {
      name: 'Immunizations Vaccine: Zoster vaccine recombinant on 2023-10-05 Left out: The vaccine was not given (Patient objection)',
    }),
  ).toBeVisible();
  await expect(
    dialog.getByRole('row', { name: 'Plan of Treatment Section: Plan of Treatment Left out: No coded entries: kept as text in the document note' }),
  ).toBeVisible();
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(dialog.getByRole('status')).toBeVisible();
    await expectAccessible(page, `C-CDA import preview (${viewport.width}px)`);
    await page.screenshot({ path: `${SHOTS}/preview-${viewport.width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  const confirm = dialog.getByRole('button', { name: 'Import', exact: true });
  await confirm.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Imported ${adding} items into this chart.`)).toBeVisible();
  await expect(section(page, 'Allergies').getByText('Penicillin G')).toBeVisible();
  await expect(section(page, 'Medications').getByText('Metformin hydrochloride 500 MG Oral Tablet')).toBeVisible();
  await expect(section(page, 'Medical Conditions').getByText('Type 2 diabetes mellitus')).toBeVisible();
  await expect(section(page, 'Surgical History').getByText('Appendectomy')).toBeVisible();
  await expect(
    section(page, 'Vaccines')
      .getByText(/Influenza/)
      .first(),
  ).toBeVisible();
  await expect(section(page, 'Vaccines').getByText(/Zoster/)).toHaveCount(0);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(section(page, 'Allergies')).toBeVisible();
    await expectAccessible(page, `chart after a C-CDA import (${viewport.width}px)`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The same document again: nothing left to add.
  await open.focus();
  await page.keyboard.press('Enter');
  await dialog.getByLabel('Choose a C-CDA document (.xml)').setInputFiles(CCD);
  await expect(dialog.getByRole('status')).toContainText(`0 to add, ${adding} already in this chart`);
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
