import { expect, test } from '@playwright/test';
import { apiSessionOf, callApi, type ApiSession } from './support/api-as.js';
import { signIn } from './support/sign-in.js';

const ADMIN = 'admin@demo.tidewell.local';
const FLAG = 'clinical_problems_list_redesign';
const PATIENT = 'pat-0032';

// Set once the flag has been turned off: the practice-wide flag goes back whatever happened
// (a hook still runs after a failed or timed-out test, and it calls the API without the page).
let restore: { session: ApiSession; previous: boolean } | undefined;
test.afterEach(async ({ request }) => {
  if (!restore) return;
  const { session, previous } = restore;
  restore = undefined;
  const back = await callApi(request, session, 'PUT', '/v1/practices/feature-gates', { flags: { [FLAG]: previous } });
  expect(back.status).toBe(200);
  expect((back.json as { flags: Record<string, boolean> }).flags[FLAG]).toBe(previous);
});

test('without the problem-list redesign the older layout adds and lists allergies and diagnoses', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN, '/home');
  const admin: ApiSession = await apiSessionOf(page);
  const before = await callApi(request, admin, 'GET', '/v1/practices/feature-gates');
  expect(before.status).toBe(200);
  const previous = (before.json as { flags: Record<string, boolean> }).flags[FLAG] === true;
  const off = await callApi(request, admin, 'PUT', '/v1/practices/feature-gates', { flags: { [FLAG]: false } });
  expect(off.status).toBe(200);
  restore = { session: admin, previous };
  expect((off.json as { flags: Record<string, boolean> }).flags[FLAG]).toBe(false);

  // The flags are read once per page load.
  await page.goto(`/#/patients/${PATIENT}`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible({ timeout: 30_000 });
  const allergies = page.getByRole('region', { name: 'Allergies', exact: true });
  const conditions = page.getByRole('region', { name: 'Medical Conditions', exact: true });
  await expect(allergies.getByText('No allergies', { exact: true })).toBeVisible();
  await expect(conditions.getByText('No diagnoses', { exact: true })).toBeVisible();
  // No Active/Resolved filter in the older layout.
  await expect(allergies.getByRole('radio')).toHaveCount(0);
  await expect(conditions.getByRole('radio')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/chart-legacy-01-empty.png' });

  await allergies.getByRole('button', { name: 'Add Allergy' }).click();
  const addAllergy = page.getByRole('dialog', { name: 'Add Allergy' });
  await addAllergy.getByRole('textbox', { name: 'Name' }).fill('Sulfa drugs');
  await addAllergy.getByText('Active', { exact: true }).click();
  await addAllergy.getByRole('button', { name: 'Save' }).click();
  await expect(addAllergy).toHaveCount(0);
  // Resolved allergies stay in the one list, marked as such.
  const sulfa = allergies.getByRole('listitem', { name: 'Sulfa drugs' });
  await expect(sulfa).toContainText('Resolved');

  await conditions.getByRole('button', { name: 'Add Diagnosis' }).click();
  const addDiagnosis = page.getByRole('dialog', { name: 'Add Diagnosis' });
  await addDiagnosis.getByRole('textbox', { name: 'Name' }).fill('Seasonal allergic rhinitis');
  await addDiagnosis.getByRole('textbox', { name: 'Start Date' }).fill('04/2022');
  await addDiagnosis.getByRole('button', { name: 'Save' }).click();
  await expect(conditions.getByRole('listitem', { name: 'Seasonal allergic rhinitis' })).toContainText('Since 04/2022');
  await expect(conditions.getByText('No diagnoses', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/chart-legacy-02-filled.png' });
});
