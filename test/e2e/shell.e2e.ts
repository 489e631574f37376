import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { cognitoAdminClient, ensurePoolUser } from '../../infra/local/cognito/provision-pool.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { test, apiAs } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots/shell';
const ADMIN = 'admin@demo.tidewell.local';
const SUPER = 'super@demo.tidewell.local';
const PRACTICE = 'Tidewell Demo Clinic';
const DEACTIVATED = 'Practice Deactivated: All automated messages, appointment reminders and integrations are currently disabled.';
const USER_FETCH_ERROR = 'An error occurred fetching your user. Please contact your practice admin. If the issue persists, please contact customer support';

test.describe.configure({ timeout: 180_000 });

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('a super user works as admin under the name Super User, with the practice name linking to the organizations page', async ({ sessions }) => {
  const page = await sessions.open(SUPER, '/home');
  const topBar = page.getByRole('banner');
  await expect(topBar.getByRole('link', { name: 'Super User' })).toBeVisible();
  const practiceLink = topBar.getByRole('link', { name: PRACTICE });
  await expect(practiceLink).toBeVisible();
  await shot(page, '01-super-user-top-bar');

  // Admin-only settings are editable for the super user.
  await page.goto('/#/new-settings/practice-metadata');
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'trending_labs' })).toBeEnabled();
  await expect(page.getByText('Only admins can change feature flags.')).toHaveCount(0);

  await practiceLink.click();
  await expect(page).toHaveURL(/#\/organizations$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await shot(page, '02-organizations');

  // The team link of a super user without a record opens the team list.
  await topBar.getByRole('link', { name: 'Super User' }).click();
  await expect(page).toHaveURL(/#\/new-settings\/team$/);
  await expect(page.getByRole('row', { name: /Alicia Moreno/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Super User/ })).toHaveCount(0);

  // Staff see the practice name as text.
  const admin = await sessions.open(ADMIN, '/home');
  await expect(admin.getByTestId('practice-name')).toHaveText(PRACTICE);
  await expect(admin.getByRole('banner').getByRole('link', { name: PRACTICE })).toHaveCount(0);
  await expect(admin.getByRole('banner').getByRole('link', { name: 'Alicia Moreno' })).toBeVisible();

  // The product switcher goes to the core product.
  await admin
    .getByRole('banner')
    .getByRole('button', { name: /Switch product/ })
    .click();
  await expect(admin.getByRole('menuitem', { name: 'Tidewell Clinical' })).toBeVisible();
  await shot(admin, '03-product-switcher');
  await admin.getByRole('menuitem', { name: 'Tidewell Core' }).click();
  await expect(admin).toHaveURL(/#\/reports$/);
});

test('an admin adds a practice number with its owner and a logo, and they are shown', async ({ sessions }) => {
  const admin = await sessions.open(ADMIN, '/new-settings/practice-metadata');
  const before = (await apiAs(admin, 'GET', '/v1/practices/metadata')).json;
  // A 1×1 transparent PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  try {
    await admin.getByRole('button', { name: 'Edit' }).click();
    await admin.getByRole('button', { name: 'Add number' }).click();
    await admin.getByRole('textbox', { name: 'Additional number 1' }).fill('(555) 201-0001');
    // Every number needs an owner.
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Phone number owner is required')).toBeVisible();
    await admin.getByRole('button', { name: /Owner of number 1/ }).click();
    await admin.getByRole('option', { name: 'Jordan Ellis' }).click();
    await admin.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await expect(admin.getByRole('img', { name: 'Logo preview' })).toBeVisible();
    await shot(admin, '04-practice-edit-numbers-logo');
    await admin.getByRole('button', { name: 'Save' }).click();

    await expect(admin.getByText('(555) 201-0001')).toBeVisible();
    await expect(admin.getByText('— Jordan Ellis')).toBeVisible();
    await expect(admin.getByRole('img', { name: `${PRACTICE} logo` })).toBeVisible();
    const saved = (await apiAs(admin, 'GET', '/v1/practices/metadata')).json;
    expect(saved.additionalPhoneNumbers).toEqual([{ phoneNumber: '+15552010001', owner: expect.any(String) }]);
    expect(saved.base64Logo).toBe(`data:image/png;base64,${png.toString('base64')}`);
    await shot(admin, '05-practice-numbers-logo');
  } finally {
    await apiAs(admin, 'PUT', '/v1/practices/metadata', {
      additionalPhoneNumbers: before.additionalPhoneNumbers ?? [],
      base64Logo: before.base64Logo ?? null,
    });
  }
});

test("an admin sets a team member's NPI and prescriber type, shown in the team list", async ({ sessions }) => {
  const admin = await sessions.open(ADMIN, '/new-settings/team');
  const row = admin.getByRole('row', { name: /Hannah Cole/ });
  await expect(row).toContainText('POBAllReview');
  const users = (await apiAs(admin, 'GET', '/v1/practices/users')).json as unknown as { userId: string; emailAddress: string }[];
  const hannah = users.find((u) => u.emailAddress === 'pob@demo.tidewell.local')!;
  try {
    await admin.getByRole('link', { name: 'Hannah Cole' }).click();
    await admin.getByRole('textbox', { name: 'NPI' }).fill('12');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('NPI number must have 10 digits')).toBeVisible();
    await admin.getByRole('textbox', { name: 'NPI' }).fill('1234567893');
    await admin.getByRole('button', { name: /Prescriber type/ }).click();
    await admin.getByRole('option', { name: 'POBSomeReview' }).click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Team member saved')).toBeVisible();
    await shot(admin, '06-team-member-edited');
    await admin.goto('/#/new-settings/team');
    await expect(row).toContainText('1234567893');
    await expect(row).toContainText('POBSomeReview');
  } finally {
    await apiAs(admin, 'PUT', `/v1/practices/users/${hannah.userId}`, { npiNumber: null, veradigmUserType: 'POBAllReview' });
  }
});

test('the red banner shows while the practice has a deactivation date', async ({ sessions }) => {
  const admin = await sessions.open(ADMIN, '/home');
  const banner = admin.getByRole('alert').filter({ hasText: DEACTIVATED });
  await expect(admin.getByRole('heading', { name: 'My Open Tasks' })).toBeVisible();
  await expect(banner).toHaveCount(0);
  try {
    expect((await apiAs(admin, 'PUT', '/v1/practices/metadata', { productDeactivatedAt: '2026-01-15T00:00:00.000Z' })).status).toBe(200);
    await admin.reload();
    await expect(banner).toHaveText(DEACTIVATED);
    await admin.waitForLoadState('networkidle');
    await shot(admin, '03-practice-deactivated');
  } finally {
    expect((await apiAs(admin, 'PUT', '/v1/practices/metadata', { productDeactivatedAt: null })).status).toBe(200);
  }
  await admin.reload();
  await expect(admin.getByRole('heading', { name: 'My Open Tasks' })).toBeVisible();
  await expect(banner).toHaveCount(0);
});

test('a sign-in whose practice user cannot be fetched gets the alert and is sent back to sign-in', async ({ page, baseURL }) => {
  // An account in the practice's user pool with no User record in the practice (and not a super user).
  const config = (await (await fetch(`${baseURL}/config.json`)).json()) as { userPoolId: string; cognitoEndpoint: string; region: string };
  const email = `no-record-${Date.now().toString(36)}@demo.tidewell.local`;
  const { practiceId } = JSON.parse(readFileSync(new URL('../../practices/demo.json', import.meta.url), 'utf8')) as { practiceId: string };
  await ensurePoolUser(cognitoAdminClient(config.cognitoEndpoint, config.region), config.userPoolId, {
    email,
    firstName: 'Casey',
    lastName: 'Nobody',
    group: 'employee',
    practiceId,
    password: DEMO_PASSWORD,
  });

  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await page.goto('/#/home');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect.poll(() => alerts, { timeout: 30_000 }).toEqual([USER_FETCH_ERROR]);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByTestId('practice-name')).toHaveCount(0);
});

test('a chart panel that fails says "Something went wrong." and the rest of the patient page stays usable', async ({ sessions }) => {
  // The health summary's code cannot be fetched (a flaky network, or a release replaced it), from
  // the start: the app asks for the chart's code once its first screen has settled, in the background.
  const page = await sessions.open(ADMIN, '/patients', {
    beforeSignIn: (p) => p.route(/\/assets\/health-summary-[^/]*\.js$/, (route) => route.abort('failed')),
  });
  await page.getByRole('searchbox', { name: 'Search patients' }).fill('Nakamura');
  await page.getByRole('row', { name: /Grace Nakamura/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Grace Nakamura \(\d+\)$/ })).toBeVisible();
  const failed = page.getByRole('alert', { name: 'Health summary' });
  await expect(failed).toContainText('Something went wrong.');
  await expect(failed.getByRole('button', { name: 'Refresh' })).toBeVisible();
  // The patient's header and the notes panel still work.
  await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Notes' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await shot(page, '04-chart-panel-failed');

  await page.unroute(/\/assets\/health-summary-[^/]*\.js$/);
  await failed.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Grace Nakamura \(\d+\)$/ })).toBeVisible();
  await expect(page.getByRole('alert', { name: 'Health summary' })).toHaveCount(0);
  await expect(page.getByText('Something went wrong.', { exact: true })).toHaveCount(0);
});
