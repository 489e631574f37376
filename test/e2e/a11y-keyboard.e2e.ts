import { expect, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { section } from './support/chart.js';
import { apiAs, PROVIDER, test } from './support/sign-in.js';

/** Only for this journey: its allergy list and notes grow by one per run. */
const PATIENT = 'pat-0017';
const SHOTS = 'test-results/screenshots/a11y';

/** Presses `key` until `target` has focus (a keyboard user tabbing to it), at most `limit` times. */
async function pressUntilFocused(page: Page, key: string, target: Locator, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

/** The palette item the search box points at now (the list keeps DOM focus in the search box). */
async function activePaletteItem(page: Page): Promise<string> {
  return page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.textContent ?? '') : '';
  });
}

test('keyboard only: sign in, skip to main, palette to a chart, add an allergy, write and close notes with focus following', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/#/home');
  const email = page.getByLabel('Email');
  await expect(email).toBeVisible({ timeout: 45_000 });
  await email.focus();
  await page.keyboard.type(PROVIDER);
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('practice-name')).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // The skip link is the first Tab stop and lands on the screen's heading.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/01-skip-link-to-dashboard.png` });

  // Palette → patient → chart: focus moves to the chart's heading.
  const patient = (await apiAs(page, 'GET', `/v1/patients/${PATIENT}`)).json as { firstName: string; lastName: string };
  await page.keyboard.press('Control+k');
  const search = page.getByRole('dialog', { name: 'Command palette' }).getByRole('searchbox');
  await expect(search).toBeFocused();
  await page.keyboard.type(`${patient.firstName} ${patient.lastName}`);
  await expect(page.getByRole('menuitem', { name: new RegExp(`^${patient.firstName} ${patient.lastName}`) })).toBeVisible();
  for (let i = 0; i < 15 && !(await activePaletteItem(page)).startsWith(`${patient.firstName} ${patient.lastName}`); i += 1)
    await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/patients/${PATIENT}$`));
  const chartHeading = page.getByRole('heading', { level: 1, name: new RegExp(`^${patient.firstName} ${patient.lastName}`) });
  await expect(chartHeading).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/02-chart-heading-focused.png` });

  // Add an allergy with the keyboard; the side panel closes with Escape (the allergy rule saves it then).
  const allergyName = `Latex ${Date.now() % 100000}`;
  await pressUntilFocused(page, 'Tab', section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'Add Allergy' });
  await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type(allergyName);
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(section(page, 'Allergies').getByRole('listitem', { name: allergyName })).toBeVisible();

  // A new note puts focus in its editor; saved and closed, focus returns to "New interaction".
  const newInteraction = page.getByRole('button', { name: 'New interaction' });
  await pressUntilFocused(page, 'Tab', newInteraction);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Note', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  const win = page.getByRole('dialog', { name: /^Note · / });
  const editor = win.getByRole('textbox', { name: 'Note text' });
  await expect(editor).toBeFocused();
  await expect(editor).toHaveAttribute('aria-placeholder', /type \/ to insert a template/);
  await page.keyboard.type('Written without a mouse.');

  // Tabbing through the patient field keeps the patient's name in it.
  const patientField = win.getByRole('combobox', { name: 'Patient' });
  await pressUntilFocused(page, 'Shift+Tab', patientField, 20);
  await page.keyboard.press('Tab');
  await expect(patientField).toHaveValue(new RegExp(`^${patient.firstName} ${patient.lastName}`));

  await pressUntilFocused(page, 'Tab', win.getByRole('button', { name: 'Save', exact: true }), 20);
  await page.keyboard.press('Enter');
  await expect(win.getByRole('status')).toHaveText(/^Saved /);
  await page.screenshot({ path: `${SHOTS}/03-note-saved.png` });
  await page.keyboard.press('Escape');
  await expect(win).toHaveCount(0);
  await expect(newInteraction).toBeFocused();

  // Escape with unsaved text asks first; Escape on the question keeps the note and its text.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  const second = page.getByRole('dialog', { name: /^Note · / });
  await expect(second.getByRole('textbox', { name: 'Note text' })).toBeFocused();
  await page.keyboard.type('Not saved yet');
  await page.keyboard.press('Escape');
  const question = page.getByRole('alertdialog', { name: 'Close note?' });
  await expect(question).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/04-close-unsaved-question.png` });
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(second.getByRole('textbox', { name: 'Note text' })).toHaveText('Not saved yet');
  await second.getByRole('textbox', { name: 'Note text' }).focus();
  await page.keyboard.press('Escape');
  await expect(question).toBeVisible();
  await pressUntilFocused(page, 'Tab', question.getByRole('button', { name: 'Close without saving' }), 5);
  await page.keyboard.press('Enter');
  await expect(second).toHaveCount(0);
  await expect(newInteraction).toBeFocused();

  // Every route change moves focus to the new screen's heading.
  await page.goto('/#/tasks');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeFocused();
});
