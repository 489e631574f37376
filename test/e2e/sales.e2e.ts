import { expect, test } from '@playwright/test';
import { PROVIDER, signIn, apiAs } from './support/sign-in.js';

test('a sales note with one charge item and one inventory item is signed, takes the item from stock and becomes read-only', async ({ page }) => {
  await signIn(page, PROVIDER, '/patients/pat-0004');
  await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
  const stockBefore = ((await apiAs(page, 'GET', '/v1/inventories')).json.items as { inventoryId: string; quantityInStock: number }[]).find(
    (i) => i.inventoryId === 'inv-ibuprofen-800',
  )!.quantityInStock;

  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Sales', exact: true }).click();
  const win = page.locator('.tw-note-window').last();
  await expect(win.getByRole('heading', { name: /^Sales · / })).toBeVisible();

  await win.getByRole('searchbox', { name: 'Search charge items' }).fill('strep');
  await win.getByRole('button', { name: 'Add Rapid strep test (87880) $35.00' }).click();
  await win.getByRole('button', { name: /Inventory item/ }).click();
  await page.getByRole('option', { name: /^Ibuprofen 800 mg tablet · \$0\.25/ }).click();
  await win.getByRole('button', { name: 'Add item' }).click();
  await win.getByRole('spinbutton', { name: 'Quantity of Ibuprofen 800 mg' }).fill('4');

  const totals = win.getByRole('definition');
  await expect(win.getByRole('table')).toContainText('Rapid strep test');
  await expect(win.getByRole('table')).toContainText('$1.00');
  // Sales tax is the inventory settings' (the spec's default 0% for the demo practice).
  await expect(totals.last()).toHaveText('$36.00');
  await page.screenshot({ path: 'test-results/screenshots/sales-01-draft.png' });

  await win.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(win.locator('.tw-note-status')).toHaveText('Signed');
  await expect(win.getByRole('spinbutton')).toHaveCount(0);
  await expect(win.getByRole('searchbox', { name: 'Search charge items' })).toHaveCount(0);
  // A signed sale has taken its items from stock: no addendum, no update.
  await expect(win.getByRole('button', { name: 'Addend' })).toHaveCount(0);
  await expect(totals.last()).toHaveText('$36.00');
  await page.screenshot({ path: 'test-results/screenshots/sales-02-signed.png' });

  const stockAfter = ((await apiAs(page, 'GET', '/v1/inventories')).json.items as { inventoryId: string; quantityInStock: number }[]).find(
    (i) => i.inventoryId === 'inv-ibuprofen-800',
  )!.quantityInStock;
  expect(stockAfter).toBe(stockBefore - 4);
});

test('an admin adds a charge item in settings and a sales note can charge it; a wrong price is said beside the field', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'admin@demo.tidewell.local', '/new-settings/charge-items');
  await expect(page.getByRole('heading', { name: 'Charge items' })).toBeVisible({ timeout: 45_000 });
  const name = `Travel consult ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Add charge item' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Price' }).fill('12.345');
  await page.getByRole('textbox', { name: 'Code' }).fill('99402');
  await page.getByRole('textbox', { name: 'Category' }).fill('Consults');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Price must be an amount from $0.00 to $100,000.00')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/sales-03-charge-item-error.png', fullPage: true });
  await page.getByRole('textbox', { name: 'Price' }).fill('$1,250.50');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Charge item added')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search charge items' }).fill(name);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('$1,250.50');
  await page.screenshot({ path: 'test-results/screenshots/sales-04-charge-items.png', fullPage: true });

  await page.goto('/#/patients/pat-0004');
  await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Sales', exact: true }).click();
  const win = page.locator('.tw-note-window').last();
  await win.getByRole('searchbox', { name: 'Search charge items' }).fill(name);
  await expect(win.getByRole('button', { name: `Add ${name} (99402) $1,250.50` })).toBeVisible();
  await win.getByRole('button', { name: 'Close' }).first().click();

  await page.goto('/#/new-settings/charge-items');
  await page.getByRole('searchbox', { name: 'Search charge items' }).fill(name);
  await page.getByRole('button', { name: `Remove ${name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Charge item removed')).toBeVisible();
  await expect(page.getByText('No charge item matches the search.')).toBeVisible();
});
