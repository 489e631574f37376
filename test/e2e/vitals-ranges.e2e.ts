import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSessionOf, callApi } from './support/api-as.js';
import { expectAccessible } from './support/axe.js';
import { PROVIDER, signIn } from './support/sign-in.js';

const IMPOSSIBLE = 'Temperature 991 °F is not possible. Enter a value from 56 to 116 °F.';
const UNUSUAL = 'Temperature 104.5 °F is outside the usual range 95–104 °F.';

async function newVitals(page: Page): Promise<Locator> {
  const before = await page.locator('.tw-note-window').count();
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Vitals', exact: true }).click();
  await expect(page.locator('.tw-note-window')).toHaveCount(before + 1);
  const noteId = await page.locator('.tw-note-window').last().getAttribute('data-note-id');
  const win = page.locator(`.tw-note-window[data-note-id="${noteId}"]`);
  await expect(win.getByRole('heading', { name: /^Vitals · / })).toBeVisible();
  return win;
}

for (const viewport of [
  { width: 1280, height: 800, action: 'Save' as const },
  { width: 390, height: 844, action: 'Sign' as const },
]) {
  test(`vitals at ${viewport.width}px: 991 °F is refused with the range and the entries kept; 104.5 °F asks, then ${viewport.action === 'Save' ? 'saves' : 'signs'}`, async ({
    page,
    request,
  }) => {
    // A fresh server on a shared machine: first screens and axe runs take their time.
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    await signIn(page, PROVIDER, '/patients/pat-0003');
    await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
    const win = await newVitals(page);

    await win.getByLabel('Heart rate').fill('72');
    await win.getByLabel('Temperature').fill('991');
    await win.getByRole('button', { name: viewport.action, exact: true }).click();
    await expect(win.locator('.tw-field__error')).toHaveText(IMPOSSIBLE);
    await expect(win.locator('.tw-note-save-state')).toHaveText(IMPOSSIBLE);
    // Nothing typed is lost: the clinician corrects the one value.
    await expect(win.getByLabel('Temperature')).toHaveValue('991');
    await expect(win.getByLabel('Heart rate')).toHaveValue('72');
    await expect(win.getByLabel('Temperature')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, `vitals refused with the range (${viewport.width}px)`);

    await win.getByLabel('Temperature').fill('104.5');
    await win.getByRole('button', { name: viewport.action, exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Confirm this vital sign' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(UNUSUAL);
    await expect(dialog).toContainText(viewport.action === 'Save' ? 'Save anyway?' : 'Sign anyway?');
    await expectAccessible(page, `vitals confirmation (${viewport.width}px)`);

    // Cancel keeps the value unsaved; the second time the clinician confirms by keyboard.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(win.getByLabel('Temperature')).toHaveValue('104.5');
    await win.getByRole('button', { name: viewport.action, exact: true }).click();
    const confirm = page.getByRole('alertdialog').getByRole('button', { name: `${viewport.action} anyway` });
    await confirm.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alertdialog')).toBeHidden();

    if (viewport.action === 'Save') {
      await expect(win.locator('.tw-note-save-state')).toContainText(/Saved/i);
      await expect(win.locator('.tw-vitals-form__confirmed')).toHaveText('Confirmed outside the usual range');
      // The server keeps the confirmation with the value, so the chart shows the clinician confirmed it.
      const noteId = await win.getAttribute('data-note-id');
      const stored = await callApi(request, await apiSessionOf(page), 'GET', `/v1/notes/${noteId}`);
      expect(stored.json).toMatchObject({ data: { temp: 104.5, heartRate: 72, confirmedVitals: { temp: 104.5 } } });
    } else {
      await expect(win.locator('.tw-note-status')).toHaveText('Signed');
      await expect(win).toContainText('Temperature: 104.5 °F');
      await expect(win).toContainText('Confirmed outside the usual range: Temperature 104.5 °F');
      await expectAccessible(page, `signed vitals with a confirmed value (${viewport.width}px)`);
    }
  });
}
