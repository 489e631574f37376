import { expect, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
import { section } from './support/chart.js';
import { apiAs, EMPLOYEE, PROVIDER, signIn, test } from './support/sign-in.js';

const PATIENT = 'pat-0021';
const STEP = 'Before e-prescribing';

test('ePrescribe first lists the allergies and medications, then opens DoseSpot (local stand-in) signed in on the patient, and its prescription comes back to the chart', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, PROVIDER, `/patients/${PATIENT}`);
  await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
  const run = Date.now().toString(36);
  const drug = `Lisinopril 10 mg tablet ${run}`;
  const reaction = `Hives and wheezing ${run}`;
  const allergy = await apiAs(page, 'POST', `/v1/patients/${PATIENT}/allergies`, { name: 'Penicillin', severity: 'severe', description: reaction });
  expect(allergy.status).toBe(201);
  try {
    await page.getByRole('button', { name: 'New interaction' }).click();
    await page.getByRole('menuitem', { name: 'ePrescribe', exact: true }).click();
    // DoseSpot does not see Tidewell's chart: the step shows the allergy with its severity and reaction first.
    const step = page.getByRole('dialog', { name: STEP });
    const allergies = step.getByRole('region', { name: 'Active allergies' });
    await expect(allergies.getByRole('listitem').filter({ hasText: 'Penicillin' }).filter({ hasText: reaction })).toContainText('Severe');
    await expect(step.getByRole('region', { name: 'Active medications' })).toBeVisible();
    await expect(step).toContainText('checked against these allergies and medications when they come back to the chart');
    await page.screenshot({ path: 'test-results/screenshots/dosespot-00-before-eprescribing.png' });
    const [tab] = await Promise.all([page.waitForEvent('popup'), step.getByRole('button', { name: 'Continue to DoseSpot' }).click()]);
    await expect(step).toHaveCount(0);
    await prescribeInStandIn(page, tab, drug);
  } finally {
    await apiAs(page, 'DELETE', `/v1/patients/${PATIENT}/allergies/${String(allergy.json.ident)}`);
  }
});

async function prescribeInStandIn(page: Page, tab: Page, drug: string): Promise<void> {
  await expect(page.getByText('Successfully signed into DoseSpot')).toBeVisible();
  await expect(tab.getByRole('heading', { level: 1, name: /DoseSpot \(local stand-in\)/ })).toBeVisible();
  expect(new URL(tab.url()).searchParams.get('PatientId')).toMatch(/^\d+$/);
  await tab.getByRole('textbox', { name: 'Drug name' }).fill(drug);
  await tab.getByRole('textbox', { name: 'Quantity' }).fill('30');
  await tab.getByRole('textbox', { name: 'Refills' }).fill('2');
  await tab.getByRole('textbox', { name: 'Directions' }).fill('Take one tablet by mouth daily');
  await tab.getByRole('button', { name: 'Send prescription' }).click();
  await expect(tab.getByRole('status')).toHaveText('Prescription sent.');
  await tab.screenshot({ path: 'test-results/screenshots/dosespot-01-window.png', fullPage: true });
  await tab.close();

  // Back in the chart, the prescription is synced as a DoseSpot note, once.
  const doseSpotNotes = async () =>
    (
      (await apiAs(page, 'GET', `/v2/notes?patientId=${PATIENT}&noteTypes=RX_DOSESPOT`)).json.notes as { data: { prescription: { medicationName: string } } }[]
    ).filter((n) => n.data.prescription.medicationName === drug).length;
  await expect.poll(doseSpotNotes, { timeout: 15_000 }).toBe(1);
  await page.getByRole('button', { name: 'Note Type' }).click();
  await page.getByRole('option', { name: 'Prescription (DoseSpot)' }).click();
  await expect(page.getByText(drug).first()).toBeVisible();
  // Its chart medication is on the medications card, without reloading the chart.
  await expect(section(page, 'Medications').getByText(drug)).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/dosespot-02-chart.png' });
  expect(await doseSpotNotes()).toBe(1);
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const) {
  test(`the before-e-prescribing step says when no allergy is recorded, works by keyboard and has no WCAG 2.1 A/AA violation at ${viewport.width}px`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signIn(page, PROVIDER, '/home');
    const created = await apiAs(page, 'POST', '/v1/patients', {
      firstName: 'Nora',
      lastName: `Noallergy ${viewport.name} ${Date.now().toString(36)}`,
      gender: 'female',
      dob: '1979-03-04',
      primaryPhoneNumber: '(555) 301-4455',
      address: { line1: '4 Dock St', city: 'Portland', state: 'ME', zip: '04101' },
    });
    expect(created.status).toBe(201);
    const patientId = String(created.json.id);
    expect(
      (
        await apiAs(page, 'POST', `/v1/patients/${patientId}/medications`, {
          productName: 'Metformin 500 mg tablet',
          sigText: 'One tablet twice daily',
          status: 'Active',
        })
      ).status,
    ).toBe(201);
    await page.goto(`/#/patients/${patientId}`);
    await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
    await page.getByRole('button', { name: 'New interaction' }).click();
    await page.getByRole('menuitem', { name: 'ePrescribe', exact: true }).click();
    const step = page.getByRole('dialog', { name: STEP });
    await expect(step.getByRole('region', { name: 'Active allergies' })).toContainText('No Active allergies');
    await expect(step.getByRole('region', { name: 'Active medications' }).getByRole('listitem')).toHaveText(/Metformin 500 mg tablet\s*One tablet twice daily/);
    await expectAccessible(page, `before e-prescribing (${viewport.name} ${viewport.width}px)`);
    await page.screenshot({ path: `test-results/screenshots/before-eprescribing-${viewport.width}.png`, fullPage: true });
    // By keyboard: Cancel, then Continue to DoseSpot, which opens DoseSpot's tab.
    await page.keyboard.press('Tab');
    const cont = step.getByRole('button', { name: 'Continue to DoseSpot' });
    for (let i = 0; i < 3 && !(await cont.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(cont).toBeFocused();
    const [tab] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
    await expect(tab.getByRole('heading', { level: 1, name: /DoseSpot \(local stand-in\)/ })).toBeVisible();
    await tab.close();
    await expect(step).toHaveCount(0);
  });
}

test('a tampered sign-on is refused by the stand-in', async ({ page }) => {
  await signIn(page, PROVIDER, `/patients/${PATIENT}`);
  const { ssoUrl } = (await apiAs(page, 'GET', `/v2/practices/sso/dosespot?patientId=${PATIENT}`)).json as { ssoUrl: string };
  const tampered = new URL(ssoUrl);
  tampered.searchParams.set('SingleSignOnUserId', '1');
  const refused = await page.goto(tampered.href);
  expect(refused?.status()).toBe(401);
  await expect(page.getByRole('alert')).toBeVisible();
});

test('a user whose prescriber type cannot prescribe is not offered ePrescribe', async ({ page }) => {
  await signIn(page, EMPLOYEE, `/patients/${PATIENT}`);
  await expect(page.getByRole('heading', { name: 'Notes', exact: true })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'New interaction' }).click();
  await expect(page.getByRole('menuitem', { name: 'In-house Prescription', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'ePrescribe', exact: true })).toHaveCount(0);
});

test('an admin links a prescriber to their DoseSpot user on the team member page, and the next sign-on uses it', async ({ page, sessions }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  const me = (await apiAs(page, 'GET', '/v1/practices/users/me')).json as { userId: string; name: string };
  const signedInAs = async () =>
    new URL(((await apiAs(page, 'GET', '/v2/practices/sso/dosespot')).json as { ssoUrl: string }).ssoUrl).searchParams.get('SingleSignOnUserId');
  const before = await signedInAs();

  const admin = await sessions.open('admin@demo.tidewell.local', '/new-settings/team');
  await admin.getByRole('link', { name: me.name }).click();
  const field = admin.getByRole('textbox', { name: 'DoseSpot user ID' });
  await field.fill('12ab');
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('DoseSpot user ID must be a number of at most 12 digits')).toBeVisible();
  await admin.screenshot({ path: 'test-results/screenshots/dosespot-03-team-member-error.png', fullPage: true });
  const other = String(Number(before) + 1);
  try {
    await field.fill(other);
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Team member saved')).toBeVisible();
    expect(await signedInAs()).toBe(other);
  } finally {
    await apiAs(admin, 'PUT', `/v1/practices/users/${me.userId}`, { doseSpotUserId: null });
  }
  expect(await signedInAs()).toBe(before);
});

test("the team settings show the DoseSpot sync's latest runs: when, how it ran, what it synced or why it failed; a user who cannot prescribe does not see them", async ({
  page,
  sessions,
}) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  const synced = await apiAs(page, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${PATIENT}`);
  expect(synced.status).toBe(200);
  // DoseSpot cannot take a patient without an address: that run fails, and says why.
  const bare = await apiAs(page, 'POST', '/v1/patients', {
    firstName: 'Tess',
    lastName: `Bare${Date.now().toString(36)}`,
    gender: 'female',
    dob: '1981-02-03',
  });
  expect((await apiAs(page, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${String(bare.json.id)}`)).status).toBe(400);

  await page.goto('/#/new-settings/team');
  const card = page.getByRole('region', { name: 'DoseSpot prescription sync' });
  await expect(card.getByRole('heading', { name: 'DoseSpot prescription sync' })).toBeVisible({ timeout: 30_000 });
  const runs = card.getByTestId('dosespot-sync-run');
  // Newest first: the failed run, then the completed one.
  await expect(runs.first()).toContainText('On demand, patient chart');
  await expect(runs.first()).toContainText('Failed');
  await expect(runs.first()).toContainText('Address Line 1 is required');
  await expect(runs.nth(1)).toContainText('Completed');
  await expect(runs.nth(1)).toContainText(new RegExp(`1 patient read, ${Number(synced.json.created)} prescriptions? added`));
  await page.screenshot({ path: 'test-results/screenshots/dosespot-04-sync-runs.png', fullPage: true });
  // The failed run leads to the chart whose details DoseSpot refused.
  await runs.first().getByRole('link', { name: 'patient chart' }).click();
  await expect(page).toHaveURL(new RegExp(`#/patients/${String(bare.json.id)}`));

  // An employee who cannot prescribe sees the team, without the sync runs.
  const employee = await sessions.open(EMPLOYEE, '/new-settings/team');
  await expect(employee.getByRole('table', { name: 'Team' })).toBeVisible({ timeout: 30_000 });
  await expect(employee.getByRole('heading', { name: 'DoseSpot prescription sync' })).toHaveCount(0);
});
