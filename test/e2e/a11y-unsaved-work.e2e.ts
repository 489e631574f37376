import { expect, type Page } from '@playwright/test';
import { drawer, openChart, section } from './support/chart.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

/** Only for these tests: allergies and notes are added to this patient on every run. */
const PATIENT = 'pat-0016';
const SHOTS = 'test-results/screenshots/a11y';

/**
 * Back from the chart: the router may hold it back with its question (then staying keeps the
 * form), or, for an entry the router did not create (a typed URL), it cannot, and the screen goes.
 */
async function goBackAndStay(page: Page): Promise<'asked' | 'left'> {
  await page.goBack();
  const question = page.getByRole('alertdialog', { name: 'Leave this page?' });
  const left = page.waitForURL(/#\/home$/, { timeout: 10_000 }).then(() => 'left' as const);
  const asked = question.waitFor({ timeout: 10_000 }).then(() => 'asked' as const);
  const outcome = await Promise.race([asked, left]);
  if (outcome === 'asked') await question.getByRole('button', { name: 'Cancel' }).click();
  else await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  return outcome;
}

test('a chart form keeps its typed text through Back and a typed URL, and saves it afterwards', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, PROVIDER, '/home');
  await openChart(page, PATIENT);
  const name = `Kept allergy ${Date.now() % 100000}`;

  await section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }).click();
  const form = drawer(page, 'Add Allergy');
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Description' }).fill('Typed before leaving');

  const outcome = await goBackAndStay(page);
  if (outcome === 'left') await openChart(page, PATIENT);
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
  await expect(form.getByRole('textbox', { name: 'Description' })).toHaveValue('Typed before leaving');

  // A URL typed into the address bar cannot be held back: the form opens again with its text.
  await page.goto('/#/tasks');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(form).toHaveCount(0);
  await openChart(page, PATIENT);
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
  await expect(form.getByRole('textbox', { name: 'Description' })).toHaveValue('Typed before leaving');
  await page.screenshot({ path: `${SHOTS}/05-chart-form-restored.png` });

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toHaveCount(0);
  await expect(section(page, 'Allergies').getByRole('listitem', { name })).toBeVisible();

  // Saved, nothing is kept: the chart opens again without the form.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible();
  await expect(section(page, 'Allergies').getByRole('listitem', { name })).toBeVisible();
  await expect(form).toHaveCount(0);
});

test('a note keeps its typed text through Back and a typed URL, and saves it afterwards', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, PROVIDER, '/home');
  await openChart(page, PATIENT);
  const text = `Kept note ${Date.now() % 100000}`;

  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Note', exact: true }).click();
  const win = page.getByRole('dialog', { name: /^Note · / });
  const editor = win.getByRole('textbox', { name: 'Note text' });
  await expect(editor).toBeFocused();
  await page.keyboard.type(text);
  const noteId = await page.locator('.tw-note-window').last().getAttribute('data-note-id');

  await page.goBack();
  await expect(page).toHaveURL(/#\/home$/);
  await expect(editor).toHaveText(text);

  await page.goto('/#/patients');
  await expect(page.getByRole('heading', { level: 1, name: 'Patients' })).toBeVisible();
  await expect(editor).toHaveText(text);
  await page.screenshot({ path: `${SHOTS}/06-note-kept-across-screens.png` });

  await win.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(win.getByRole('status')).toHaveText(/^Saved /);
  await win.getByRole('button', { name: 'Close note' }).click();
  await expect(win).toHaveCount(0);
  const saved = await apiAs(page, 'GET', `/v1/notes/${noteId}`);
  expect((saved.json.data as { text?: string }).text).toBe(text);
});
