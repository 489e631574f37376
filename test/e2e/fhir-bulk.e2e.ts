import { expect } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
import { apiAs, EMPLOYEE, signIn, test } from './support/sign-in.js';

const ADMIN = 'admin@demo.tidewell.local';
// One export runs at a time in a practice: these tests take turns.
test.describe.configure({ mode: 'serial' });
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

test('an admin starts the practice export in Settings, sees its progress, then downloads the manifest and its files', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN, '/new-settings/data-export');
  await expect(page.getByRole('heading', { name: 'Practice data export (FHIR)' })).toBeVisible();
  // An export another test file left running must end before a new one starts.
  await expect(page.getByRole('button', { name: 'Export all practice data' })).toBeEnabled({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Export all practice data' }).click();
  await expect(page.getByText('The export has started. You will be notified when it is ready.')).toBeVisible({ timeout: 30_000 });
  const progress = page.getByRole('progressbar', { name: 'Export progress' });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Exporting… (\d+ of \d+ patients|counting the patients)/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/fhir-bulk-progress.png' });

  await expect(page.getByRole('status').filter({ hasText: 'The export is ready.' })).toBeVisible({ timeout: 120_000 });
  await expect(progress).toBeHidden();
  const manifestLink = page.getByRole('link', { name: 'manifest.json' });
  const manifest = (await (await page.request.get((await manifestLink.getAttribute('href'))!)).json()) as {
    output: { type: string; url: string }[];
    transactionTime: string;
  };
  expect(manifest.output.map((o) => o.type)).toEqual(expect.arrayContaining(['Patient']));
  const files = page.getByRole('list', { name: 'Export files by resource type' });
  // One link per NDJSON file the manifest lists (by its url on the API's download route), each downloading that type's resources.
  for (const out of manifest.output) {
    expect(out.url).toMatch(/^https?:\/\/.+\/v1\/practices\/fhir-exports\/[^/]+\/files\/[A-Za-z]+(\.\d+)?\.ndjson$/);
    await expect(files.getByRole('link', { name: out.url.split('/').pop()!, exact: true })).toBeVisible();
  }
  const patientFile = files.getByRole('link', { name: /^Patient\.\d+\.ndjson$/ }).first();
  const body = await (await page.request.get((await patientFile.getAttribute('href'))!)).text();
  expect(
    body
      .split('\n')
      .filter(Boolean)
      .every((line) => (JSON.parse(line) as { resourceType: string }).resourceType === 'Patient'),
  ).toBe(true);
  await page.screenshot({ path: 'test-results/screenshots/fhir-bulk-ready.png', fullPage: true });

  // The admin's notification says it is ready.
  const tasks = await apiAs(page, 'GET', '/v1/notifications?notificationType=TASK');
  expect(JSON.stringify(tasks.json)).toContain('The practice data export is ready to download in Settings > Data export.');
});

test('an employee sees the export screen without the button, and the API refuses them', async ({ page }) => {
  await signIn(page, EMPLOYEE, '/new-settings/data-export');
  await expect(page.getByText('Only admins can export the practice data.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export all practice data' })).toHaveCount(0);
  expect((await apiAs(page, 'POST', '/v1/practices/fhir-exports')).status).toBe(403);
});

for (const viewport of VIEWPORTS) {
  test(`the data export screen has no WCAG 2.1 A/AA violation at ${viewport.width}×${viewport.height}, and is used by keyboard`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signIn(page, ADMIN, '/new-settings/data-export');
    await expect(page.getByRole('heading', { name: 'Practice data export (FHIR)' })).toBeVisible();
    await expectAccessible(page, `settings: data export (${viewport.name} ${viewport.width}px)`);
    const start = page.getByRole('button', { name: 'Export all practice data' });
    // An export left running by another test must end before a new one starts.
    await expect(start).toBeEnabled({ timeout: 120_000 });
    await start.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
    await expectAccessible(page, `settings: data export running (${viewport.name} ${viewport.width}px)`);
    await expect(page.getByRole('link', { name: 'manifest.json' })).toBeVisible({ timeout: 120_000 });
    await expectAccessible(page, `settings: data export ready (${viewport.name} ${viewport.width}px)`);
    await page.screenshot({ path: `test-results/screenshots/fhir-bulk-${viewport.width}.png`, fullPage: true });
  });
}
