import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
import { drawer, openChart, section } from './support/chart.js';
import { apiAs, PROVIDER, signIn } from './support/sign-in.js';

const stockOf = async (page: Parameters<typeof apiAs>[0], inventoryId: string) =>
  (await apiAs(page, 'GET', `/v2/inventories/${inventoryId}`)).json.quantityInStock as number;

test('amoxicillin for a patient with a severe penicillin allergy: the window warns at choice, signing asks for a reason, and the reason is kept', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, PROVIDER, '/home');
  const created = await apiAs(page, 'POST', '/v1/patients', {
    firstName: 'Penny',
    lastName: `Allergy${Date.now().toString(36)}`,
    gender: 'female',
    dob: '1968-09-12',
    primaryPhoneNumber: '(555) 410-2233',
    address: { line1: '9 Wharf Rd', city: 'Portland', state: 'ME', zip: '04101' },
  });
  expect(created.status).toBe(201);
  const patientId = String(created.json.id);
  const allergy = await apiAs(page, 'POST', `/v1/patients/${patientId}/allergies`, {
    name: 'Penicillin',
    severity: 'severe',
    description: 'Hives',
    allergen: { kind: 'class', name: 'Penicillin-class Antibacterial [EPC]' },
  });
  expect(allergy.status).toBe(201);
  const before = await stockOf(page, 'inv-amoxicillin-500');

  await openChart(page, patientId);
  await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'In-house Prescription', exact: true }).click();
  const win = page.locator('.tw-note-window').last();
  await expect(win.getByRole('heading', { name: /^In-house Prescription · / })).toBeVisible({ timeout: 60_000 });

  // The medication is chosen by keyboard: open the list, type ahead, Enter.
  await win.getByRole('button', { name: /Medication/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('option').first()).toBeVisible();
  await page.keyboard.type('Amoxicillin');
  await page.keyboard.press('Enter');
  await expect(win.getByRole('button', { name: /Medication/ })).toContainText('Amoxicillin 500 mg capsule');

  const warning = win.getByRole('alert').filter({ hasText: 'Allergy: Penicillin' });
  await expect(warning).toHaveText('Allergy Allergy: Penicillin (severe, Hives). Amoxicillin is a Penicillin-class Antibacterial [EPC].');
  await expect(win.getByRole('heading', { name: 'Safety warning' })).toBeVisible();
  await expectAccessible(page, 'prescription window with a safety warning (1280 px)');

  await win.getByRole('button', { name: /Prescriber/ }).click();
  await page.getByRole('option', { name: /^Daniel Okafor/ }).click();
  await win.getByRole('textbox', { name: 'Frequency' }).fill('Three times a day');
  await win.getByRole('textbox', { name: 'Quantity' }).fill('21');
  await win.getByRole('textbox', { name: 'Days of treatment' }).fill('7');
  await win.getByRole('textbox', { name: 'Refills' }).fill('0');

  // Signing over the warning without a reason is refused; nothing is dispensed.
  await win.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(win.getByText('A safety warning needs an override reason before this can be signed.')).toBeVisible();
  await expect(win.getByText('Give a reason to continue despite the warnings')).toBeVisible();
  expect(await stockOf(page, 'inv-amoxicillin-500')).toBe(before);

  await page.setViewportSize({ width: 390, height: 844 });
  await win.getByRole('textbox', { name: /Reason to continue/ }).scrollIntoViewIfNeeded();
  await expectAccessible(page, 'prescription window with a safety warning and the refused signature (390 px)');
  await page.setViewportSize({ width: 1280, height: 900 });

  const reason = 'Tolerated amoxicillin in 2025 without reaction; benefit outweighs risk';
  await win.getByRole('textbox', { name: /Reason to continue/ }).focus();
  await page.keyboard.type(reason);
  await win.getByRole('button', { name: 'Sign', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(win.locator('.tw-note-status')).toHaveText('Signed');
  await expect(win.getByText('Signed over a safety warning')).toBeVisible();
  await expect(win.getByText(`Reason: ${reason}`)).toBeVisible();
  // The signed window, while the Sign button that was pressed and left is still being read out.
  await expectAccessible(page, 'signed prescription window with the override reason (1280 px)');
  expect(await stockOf(page, 'inv-amoxicillin-500')).toBe(before - 21);
});

test('the allergy form finds "sulfa" and codes the allergy by its drug class, by keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  const created = await apiAs(page, 'POST', '/v1/patients', {
    firstName: 'Sully',
    lastName: `Sulfa${Date.now().toString(36)}`,
    gender: 'male',
    dob: '1959-01-20',
  });
  const patientId = String(created.json.id);
  await openChart(page, patientId);
  await section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }).click();
  const form = drawer(page, 'Add Allergy');
  await form.getByRole('textbox', { name: 'Name' }).fill('Sulfa');
  const field = form.getByRole('combobox', { name: /Caused by/ });
  await field.focus();
  await page.keyboard.type('sulfa');
  const option = page.getByRole('option', { name: /Sulfonamide Antibacterial \[EPC\]/ });
  await expect(option).toBeVisible();
  await expectAccessible(page, 'allergy form with the allergen search open');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(field).toHaveValue('Sulfonamide Antibacterial [EPC] (drug class)');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toHaveCount(0);
  await expect(section(page, 'Allergies').getByText('Drug class: Sulfonamide Antibacterial [EPC]')).toBeVisible();
  await expect
    .poll(async () => ((await apiAs(page, 'GET', `/v1/patients/${patientId}/allergies`)).json.items as { allergen?: { name: string } }[])[0]?.allergen?.name)
    .toBe('Sulfonamide Antibacterial [EPC]');
});
