import { expect, type Page } from '@playwright/test';
import { bookGraceAt } from './support/calendar-booking.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

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
  await expect(page.getByText('View and edit events on all your calendars')).toBeVisible();
  await page.getByLabel('Google account').fill('dr.okafor@gmail.local');
  await shot(page, '01-consent');
  await page.getByRole('button', { name: 'Allow' }).click();

  await expect(page).toHaveURL(/#\/new-settings\/calendar$/);
  const calendars = card.getByRole('list', { name: 'Your Google calendars' });
  await expect(calendars.getByRole('listitem')).toHaveText(['dr.okafor@gmail.local (primary)', 'Clinic on-call', 'Holidays in United States']);
  await expect(card.getByText(/^Linked since /)).toBeVisible();
  await expect(card.getByText('Your appointments go to: dr.okafor@gmail.local')).toBeVisible();
  await shot(page, '02-linked');

  // Appointments go to the on-call calendar instead of the primary one.
  await card.getByRole('button', { name: /Calendar for your appointments/ }).click();
  await expect(page.getByRole('option', { name: 'Holidays in United States' })).toHaveCount(0);
  await page.getByRole('option', { name: 'Clinic on-call' }).click();
  await card.getByRole('button', { name: 'Save calendar' }).click();
  await expect(card.getByText('Your appointments go to: Clinic on-call')).toBeVisible();
  await shot(page, '03-calendar-chosen');

  // Booked on the calendar, the appointment shows in Google by type and place, without the patient's name.
  await page.goto('/#/calendar?date=2027-10-13&view=day');
  const dialog = await bookGraceAt(page, '11:00');
  await expect(dialog).toBeHidden();
  const me = (await apiAs(page, 'GET', '/v1/practices/users/me')).json;
  const day = (await apiAs(page, 'GET', `/v1/appointments?start=2027-10-13T05:00:00.000Z&end=2027-10-14T05:00:00.000Z&providerId=${String(me.userId)}`))
    .json as { occurrences: { appointmentId: string }[] };
  expect(day.occurrences).toHaveLength(1);

  await page.goto('/local/google/calendar');
  // Linking also wrote the provider's appointments booked earlier: this one is found by its day.
  const row = page.getByRole('row', { name: /Appointment: Follow-up visit/ }).filter({ hasText: 'Oct 13, 2027' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('11:00');
  await expect(row).toContainText('Main office');
  await expect(row).toContainText('Clinic on-call');
  await expect(row).not.toContainText('Grace');
  await shot(page, '04-google-event');
  expect((await apiAs(page, 'DELETE', `/v1/appointments/${day.occurrences[0].appointmentId}`)).status).toBe(200);
  await page.reload();
  await expect(row).toHaveCount(0);

  await page.goto('/#/new-settings/calendar');
  await expect(card.getByText(/^Last written to Google /)).toBeVisible();

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
  await shot(page, '05-unlinked');

  // A few seconds later the appointments Tidewell added are gone from Google too.
  await page.goto('/local/google/calendar');
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('row', { name: /Appointment:/ })).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await shot(page, '06-google-emptied');
});
