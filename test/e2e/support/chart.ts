import { expect, type Locator, type Page } from '@playwright/test';

/** A health-summary card by its title. */
export const section = (page: Page, title: string): Locator => page.getByRole('region', { name: title, exact: true });

/** A side drawer or dialog by its title. */
export const drawer = (page: Page, title: string): Locator => page.getByRole('dialog', { name: title });

/** Opens the kebab menu named `menu` inside `scope` and picks `action`. */
export async function menuAction(page: Page, scope: Locator, menu: string | RegExp, action: string): Promise<void> {
  await scope.getByRole('button', { name: menu }).first().click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/** Opens a patient's chart on a signed-in page and waits for the health summary. */
export async function openChart(page: Page, patientId: string): Promise<void> {
  await page.goto(`/#/patients/${patientId}`);
  const ready = page.getByRole('heading', { name: 'Health Summary' });
  // Another local server may be rebuilding the shared web bundle: load the page again then.
  for (let attempt = 0; attempt < 6; attempt += 1) {
    if (
      await ready.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    await page.reload();
  }
  await expect(ready).toBeVisible();
}

/** Filters the chart's notes to lab orders (delivered ones when asked) and opens the newest. */
export async function openNewestLabOrder(page: Page, { delivered = false } = {}): Promise<void> {
  await page.getByRole('button', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Lab Order' }).click();
  if (delivered) {
    await page.getByRole('button', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Delivered' }).click();
  }
  await page.getByRole('list', { name: 'Notes' }).getByRole('button').first().click();
}
