import { expect, test } from '@playwright/test';
import { openChart, section } from './support/chart.js';
import { apiAs, PROVIDER, signIn } from './support/sign-in.js';

const PATIENT = 'pat-0006';
const stockOf = async (page: Parameters<typeof apiAs>[0], inventoryId: string) =>
  (await apiAs(page, 'GET', `/v2/inventories/${inventoryId}`)).json.quantityInStock as number;

test('an in-house prescription dispenses from the inventory when signed, adds the chart medication, and deleting it restocks', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, PROVIDER, `/patients/${PATIENT}`);
  await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
  const before = await stockOf(page, 'inv-ondansetron-4');

  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'In-house Prescription', exact: true }).click();
  const win = page.locator('.tw-note-window').last();
  await expect(win.getByRole('heading', { name: /^In-house Prescription · / })).toBeVisible();

  // The selector leaves out expired (Cephalexin), hidden (Azithromycin) and NDC-less (Saline) items.
  await win.getByRole('button', { name: /Medication/ }).click();
  const options = page.getByRole('option');
  await expect(options.filter({ hasText: 'Zofran ODT 4 mg' })).toHaveCount(1);
  for (const excluded of ['Cephalexin', 'Zithromax', 'Saline']) await expect(options.filter({ hasText: excluded })).toHaveCount(0);
  await options.filter({ hasText: 'Zofran ODT 4 mg' }).click();
  await win.getByRole('button', { name: /Prescriber/ }).click();
  await page.getByRole('option', { name: /^Daniel Okafor/ }).click();
  await win.getByRole('textbox', { name: 'Frequency' }).fill('Every 8 hours as needed');
  await win.getByRole('textbox', { name: 'Quantity' }).fill('6');
  await win.getByRole('textbox', { name: 'Days of treatment' }).fill('3');
  await win.getByRole('textbox', { name: 'Refills' }).fill('0');
  await win.getByRole('textbox', { name: 'Instructions' }).fill('Dissolve one tablet on the tongue for nausea');
  await win.getByRole('textbox', { name: 'Lot expiration' }).fill('2028-03');
  await win.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(win.getByText('Lot expiration must be in mm/yyyy format').first()).toBeVisible();
  await win.getByRole('textbox', { name: 'Lot expiration' }).fill('03/2028');
  await expect(win.getByText('price for the patient $7.20')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/rx-01-draft.png' });

  await win.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(win.locator('.tw-note-status')).toHaveText('Signed');
  await expect(win.getByRole('textbox')).toHaveCount(0);
  await expect(win.getByRole('button', { name: 'Addend' })).toHaveCount(0);
  await expect(win.getByText('Zofran ODT 4 mg orally disintegrating tablet')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/rx-02-signed.png' });
  // Print opens the prescription PDF in a new tab.
  const [tab] = await Promise.all([page.waitForEvent('popup'), win.getByRole('button', { name: 'Print prescription' }).click()]);
  await expect.poll(() => tab.url()).toMatch(/^blob:/);
  await tab.close();
  expect(await stockOf(page, 'inv-ondansetron-4')).toBe(before - 6);

  // The chart's medications list has it, from today.
  await openChart(page, PATIENT);
  await expect(section(page, 'Medications').getByText('Zofran ODT 4 mg orally disintegrating tablet').first()).toBeVisible();

  // The inventory screens show the lower stock and the dispense in the item's history.
  await page.goto('/#/inventory/list');
  await expect(page.getByRole('heading', { level: 1, name: 'Medications' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Prednisone/ })).toContainText('Needs restock');
  await page.screenshot({ path: 'test-results/screenshots/rx-03-inventory.png', fullPage: true });
  await page.getByRole('link', { name: 'Ondansetron' }).click();
  const history = page.getByRole('table', { name: 'Stock history' });
  await expect(history.getByRole('row').nth(1)).toContainText('Dispensed on prescription');
  await expect(history.getByRole('row').nth(1)).toContainText('-6');
  // A restock by hand needs a reason, and lands in the history with who and how much.
  await page.getByRole('textbox', { name: 'Quantity in stock' }).fill(String(before - 6 + 10));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('A reason for editing is required when the quantity in stock changes').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Reason for editing' }).fill('Delivery from the wholesaler');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Inventory item saved')).toBeVisible();
  await expect(history.getByRole('row').nth(1)).toContainText('Delivery from the wholesaler');
  await expect(history.getByRole('row').nth(1)).toContainText('+10');
  expect(await stockOf(page, 'inv-ondansetron-4')).toBe(before + 4);
  await page.screenshot({ path: 'test-results/screenshots/rx-04-item.png', fullPage: true });

  // Delete the prescription with 'Restock inventory items' (on by default): the quantity comes back.
  // The note window stays open over every screen.
  await win.getByRole('button', { name: /menu/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this note?' });
  await expect(confirm.getByRole('checkbox', { name: 'Restock inventory items' })).toBeChecked();
  await page.screenshot({ path: 'test-results/screenshots/rx-05-delete.png' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Medication restocked!')).toBeVisible();
  expect(await stockOf(page, 'inv-ondansetron-4')).toBe(before + 10);
  // Its chart medication went with it.
  await openChart(page, PATIENT);
  await expect(section(page, 'Medications')).toBeVisible();
  await expect(section(page, 'Medications').getByText('Zofran ODT 4 mg orally disintegrating tablet')).toHaveCount(0);
  await section(page, 'Medications').screenshot({ path: 'test-results/screenshots/rx-06-medications-after-delete.png' });
});
