import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
import { PROVIDER, signIn, test } from './support/sign-in.js';

const FIXTURES = join(process.cwd(), 'test/fixtures/ccda-viewer');
const SHOTS = 'test-results/screenshots/ccda-viewer';
const files = ['referral-nested.xml', 'embedded-pdf.xml', 'embedded-text.xml', 'not-ccda.xml'];

async function upload(page: Page): Promise<void> {
  const folder = `C-CDA ${Date.now().toString(36)}`;
  await signIn(page, PROVIDER, '/files');
  await expect(page.getByRole('heading', { level: 1, name: 'File Drive' })).toBeVisible();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill(folder);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('button', { name: folder, exact: true }).click();
  await page.getByLabel('Files to upload').setInputFiles(files.map((f) => join(FIXTURES, f)));
  for (const name of files) await expect(page.getByRole('button', { name, exact: true })).toBeVisible({ timeout: 30_000 });
}

async function openFile(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('status', { name: 'Loading file' })).toHaveCount(0);
  return dialog;
}

async function close(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('a C-CDA from the drive: the contents move within the viewer and focus the section, nested subsections, unstructured bodies, files that are not C-CDA, at 1280 × 800', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await upload(page);
  const driveUrl = page.url();

  let dialog = await openFile(page, 'referral-nested.xml');
  // The compact header leaves the first clinical section in view without scrolling.
  const first = dialog.getByRole('heading', { level: 3, name: 'Reason for referral' });
  await expect(first).toBeInViewport();
  expect((await first.boundingBox())!.y + 40).toBeLessThan(800);
  await expect(dialog.getByText('Stage 3 pressure ulcer, not healing')).toBeInViewport();
  await expect(dialog.getByText('03/14/2026 9:30 AM (UTC-05:00)')).toBeVisible();
  await expect(dialog.getByText('Dr. Amos Reyes, Harbor Family Medicine; ChartWorks, ChartWorks EHR 9')).toBeVisible();
  await expect(dialog.getByText('Harbor Health Partners')).toBeVisible();
  await expect(dialog.getByText('•••-••-3456')).toBeVisible();
  await expect(dialog.getByText('Identifier (root 2.16.840.1.113883.19.5)')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/referral-1280.png` });

  // A nested subsection's finding is there, at its depth.
  const ulcer = dialog.getByRole('heading', { level: 5, name: 'Pressure ulcer finding' });
  await expect(ulcer).toHaveCount(1);
  await expect(dialog.getByText('Sacral pressure ulcer, stage 3, 4 cm by 3 cm')).toHaveCount(1);
  await expect(dialog.getByRole('heading', { level: 4, name: 'Skin' })).toHaveCount(1);

  // A contents entry keeps the viewer open and the route unchanged; the section's heading takes focus in view.
  const toc = dialog.getByRole('navigation', { name: 'Table of contents' });
  await toc.getByRole('link', { name: 'Pressure ulcer finding' }).click();
  await expect(ulcer).toBeFocused();
  await expect(ulcer).toBeInViewport();
  expect(page.url()).toBe(driveUrl);
  await expect(dialog).toBeVisible();
  // By keyboard too, and to a section the user had hidden.
  await toc.getByRole('checkbox', { name: 'Show Allergies' }).uncheck();
  await expect(dialog.getByRole('heading', { level: 3, name: 'Allergies' })).toHaveCount(0);
  await toc.getByRole('link', { name: 'Allergies' }).focus();
  await page.keyboard.press('Enter');
  const allergies = dialog.getByRole('heading', { level: 3, name: 'Allergies' });
  await expect(allergies).toBeFocused();
  await expect(allergies).toBeInViewport();
  expect(page.url()).toBe(driveUrl);
  // A link of the narrative to another part of the document stays inside too.
  await dialog.getByRole('link', { name: 'the ulcer below' }).click();
  await expect(dialog.getByText('Sacral pressure ulcer, stage 3, 4 cm by 3 cm')).toBeFocused();
  expect(page.url()).toBe(driveUrl);

  // Narrative tables keep their spans and styles.
  await expect(dialog.locator('td[rowspan="2"]')).toHaveText('Rash and hives');
  await expect(dialog.locator('td[colspan="2"]')).toHaveText('Reviewed with the patient1 on H2O intake');
  expect(await dialog.locator('.tw-ccd-bold', { hasText: 'Sulfa drugs' }).evaluate((el) => getComputedStyle(el).fontWeight)).toBe('700');
  await expect(dialog.getByRole('link', { name: 'run me' })).toHaveCount(0);
  await expectAccessible(page, 'C-CDA viewer, nested referral (1280px)');
  await close(dialog);

  dialog = await openFile(page, 'embedded-pdf.xml');
  await expect(dialog.getByRole('heading', { level: 2, name: 'Scanned lab report' })).toBeVisible();
  await expect(dialog.locator('.tw-pdf-viewer[data-state=ready] canvas')).toHaveAttribute('aria-label', 'embedded-pdf.xml, embedded PDF, page 1 of 1');
  await expectAccessible(page, 'C-CDA viewer, embedded PDF (1280px)');
  await page.screenshot({ path: `${SHOTS}/embedded-pdf-1280.png` });
  await close(dialog);

  dialog = await openFile(page, 'embedded-text.xml');
  await expect(dialog.locator('pre')).toContainText('Plan:   debridement next week.');
  await close(dialog);

  dialog = await openFile(page, 'not-ccda.xml');
  await expect(dialog.getByRole('alert')).toHaveText(
    'This file is XML but not a clinical document (C-CDA): it starts with <invoice> where a C-CDA starts with <ClinicalDocument>. Download the file to open it in another program.',
  );
  await expect(dialog.getByRole('link', { name: 'Download not-ccda.xml' })).toHaveAttribute('href', /not-ccda\.xml/);
  await expect(dialog.getByText('Dressing kit')).toBeHidden();
  await expectAccessible(page, 'C-CDA viewer, not a C-CDA (1280px)');
  await page.screenshot({ path: `${SHOTS}/not-ccda-1280.png` });
  await close(dialog);

  // At phone width: the same document, accessible and without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const name of ['referral-nested.xml', 'embedded-text.xml', 'not-ccda.xml']) {
    dialog = await openFile(page, name);
    await expect(dialog.locator('.tw-ccd-viewer, .tw-ccd-viewer__not-ccd')).toBeVisible();
    await expectAccessible(page, `C-CDA viewer, ${name} (390px)`);
    await page.screenshot({ path: `${SHOTS}/${name}-390.png` });
    await close(dialog);
  }
});
