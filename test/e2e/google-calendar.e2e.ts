import { expect, type Page } from '@playwright/test';
import { PROVIDER, signIn, test } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots/google-calendar';
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

test("a provider links their Google Calendar through Google's consent page, sees their calendars, and unlinks it", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/new-settings/calendar');
  const card = page.locator('.tw-card', { has: page.getByRole('heading', { level: 2, name: 'Google Calendar' }) });
  await expect(card.getByText('Google Calendar is not linked.')).toBeVisible();
  await expect(card.getByText('Local Google stand-in')).toBeVisible();

  // Cancelling at Google comes back with nothing linked.
  await card.getByRole('button', { name: 'Link Google Calendar' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Sign in with Google/ })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByRole('alert')).toHaveText('Google Calendar was not linked: access was not allowed.');
  await expect(card.getByText('Google Calendar is not linked.')).toBeVisible();
  expect(page.url()).not.toContain('error=');

  await card.getByRole('button', { name: 'Link Google Calendar' }).click();
  await expect(page.getByText('Local Google stand-in')).toBeVisible();
  await expect(page.getByText('See your calendars (read only)')).toBeVisible();
  await page.getByLabel('Google account').fill('dr.okafor@gmail.local');
  await shot(page, '01-consent');
  await page.getByRole('button', { name: 'Allow' }).click();

  await expect(page).toHaveURL(/#\/new-settings\/calendar$/);
  const calendars = card.getByRole('list', { name: 'Your Google calendars' });
  await expect(calendars.getByRole('listitem')).toHaveText(['dr.okafor@gmail.local (primary)', 'Clinic on-call', 'Holidays in United States']);
  await expect(card.getByText(/^Linked since /)).toBeVisible();
  await shot(page, '02-linked');

  // The code is spent: a reload neither repeats it nor loses the link.
  await page.reload();
  await expect(calendars.getByRole('listitem')).toHaveCount(3);
  await expect(card.getByRole('alert')).toHaveCount(0);

  await card.getByRole('button', { name: 'Unlink Google Calendar' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Unlink Google Calendar?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Unlink' }).click();
  await expect(card.getByText('Google Calendar is not linked.')).toBeVisible();
  await expect(calendars).toHaveCount(0);
  await shot(page, '03-unlinked');
});
