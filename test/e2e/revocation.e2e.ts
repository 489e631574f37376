import { expect } from '@playwright/test';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { apiAs, test } from './support/sign-in.js';

const ADMIN = 'admin@demo.tidewell.local';
const MARCUS = 'pa-supervised@demo.tidewell.local';
const SHOTS = 'test-results/screenshots/revocation';

test.describe.configure({ timeout: 180_000 });

test('a user an admin sets to No access is signed out of their open session within a minute and cannot sign in again', async ({ sessions }) => {
  const admin = await sessions.open(ADMIN, '/new-settings/team');
  const user = await sessions.open(MARCUS, '/home');
  await expect(user.getByTestId('practice-name')).toBeVisible();
  const users = (await apiAs(admin, 'GET', '/v1/practices/users')).json as unknown as { userId: string; emailAddress: string }[];
  const marcus = users.find((u) => u.emailAddress === MARCUS)!;
  try {
    await admin.getByRole('link', { name: 'Marcus Lindqvist' }).click();
    await admin.getByRole('button', { name: /Permission group/ }).click();
    await admin.getByRole('option', { name: 'No access' }).click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Team member saved')).toBeVisible();
    const savedAt = Date.now();

    // The open session notices without the user doing anything, and ends.
    await expect(user.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible({ timeout: 60_000 });
    expect(Date.now() - savedAt).toBeLessThan(60_000);
    await expect(user.getByTestId('practice-name')).toHaveCount(0);
    await user.screenshot({ path: `${SHOTS}/01-revoked-user-signed-out.png` });

    // The pool refuses a new sign-in while the user has no access.
    await user.getByLabel('Email').fill(MARCUS);
    await user.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await user.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(user.getByText('User is disabled.')).toBeVisible();
    await user.screenshot({ path: `${SHOTS}/02-revoked-user-sign-in-refused.png` });
  } finally {
    expect((await apiAs(admin, 'PUT', `/v1/practices/users/${marcus.userId}`, { permissionGroup: 'provider', userStatus: 'active' })).status).toBe(200);
  }
});
