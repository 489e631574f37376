import { expect, type Page } from '@playwright/test';
import { bookGraceAt, fillBooking, GRACE, MARIA, openBooking, weeklyNewPatientVisits } from './support/calendar-booking.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots/calendar';
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });

/** Chicago's local date, as the palette computes it in the browser (the config runs the browser in Chicago). */
function chicagoToday(): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(new Date())
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}`;
}

test('a weekly appointment is booked once and shows in the day, week, month and agenda views, at 9:00 AM across the change to daylight time', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Thursday 2027-03-04; Chicago moves to daylight time on Sunday 2027-03-14.
  await signIn(page, PROVIDER, '/calendar?date=2027-03-04&view=day');
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  await expect(page.getByText("Times are in the practice's time zone, America/Chicago.")).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Thursday, March 4, 2027' })).toBeVisible();

  const dialog = await openBooking(page);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select a patient');
  await fillBooking(page, dialog, GRACE);
  await expect(dialog.getByLabel('Date')).toHaveValue('2027-03-04');
  await expect(dialog.getByLabel('Time')).toHaveValue('09:00');
  await dialog.getByRole('button', { name: /Repeats/ }).click();
  await page.getByRole('option', { name: 'Weekly' }).click();
  await dialog.getByRole('button', { name: /Ends/ }).click();
  await page.getByRole('option', { name: 'After a number of times' }).click();
  await dialog.getByLabel('Occurrences').fill('4');
  await shot(page, '01-booking-dialog');
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(dialog).toBeHidden();

  const first = /^9:00 AM to 9:30 AM, Grace Nakamura, Follow-up visit with .+, repeats$/;
  await expect(page.getByRole('button', { name: first })).toHaveCount(1);
  await shot(page, '02-day');

  // The same slot again is refused, naming the clash.
  await openBooking(page);
  await fillBooking(page, dialog, MARIA, '09:15');
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/is already booked on 03\/04\/2027 from 9:00 AM to 9:30 AM\. Choose another time or provider\.$/);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Week view, after the change to daylight time: still 9:00 AM.
  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page).toHaveURL(/view=week/);
  await page.getByRole('button', { name: 'Next week' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'March 14, 2027 – March 20, 2027' })).toBeVisible();
  await expect(page.getByRole('button', { name: first })).toHaveCount(1);
  await shot(page, '03-week');

  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Month', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'March 2027' })).toBeVisible();
  await expect(page.getByRole('button', { name: first })).toHaveCount(4);
  await shot(page, '04-month');

  await page.goto('/#/calendar?date=2027-03-01&view=agenda');
  await expect(page.getByRole('button', { name: first })).toHaveCount(4);
  await expect(page.getByRole('heading', { level: 3, name: 'Thu 3/25 · 03/25/2027' })).toBeVisible();
  await shot(page, '05-agenda');

  // By keyboard: an appointment opens on its view with Enter, Edit opens its form, and the dialog closes with Escape.
  await page.getByRole('button', { name: first }).first().focus();
  await page.keyboard.press('Enter');
  const opened = page.getByRole('dialog', { name: 'Appointment' });
  await expect(opened.getByRole('radiogroup', { name: 'Arrival status' })).toBeVisible();
  await opened.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('dialog', { name: 'Edit appointment' });
  await expect(form.getByRole('button', { name: 'Cancel appointment' })).toBeVisible();
  await shot(page, '06-appointment');
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
});

test("the palette's Today's Calendar opens today's day view", async ({ page }) => {
  await signIn(page, PROVIDER, '/home');
  await page.keyboard.press('Control+K');
  await page.keyboard.type("Today's Calendar");
  await page.getByRole('menuitem', { name: "Today's Calendar" }).click();
  await expect(page).toHaveURL(new RegExp(`#/calendar\\?date=${chicagoToday()}&view=day$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Day', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await shot(page, '07-today');
});

test('an admin adds an appointment type and a booking location; a provider chooses the view the calendar opens on', async ({ page, sessions }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  await signIn(page, 'admin@demo.tidewell.local', '/new-settings/calendar');
  await expect(page.getByRole('heading', { level: 2, name: 'Appointment types' })).toBeVisible();
  await page.getByRole('button', { name: 'Add appointment type' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill(`Annual exam ${run}`);
  await page.getByLabel('Length (minutes)').fill('45');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const types = page.getByRole('table', { name: 'Appointment types' });
  await expect(types.getByRole('row', { name: new RegExp(`Annual exam ${run} 45 minutes Active`) })).toBeVisible();

  await page.getByRole('button', { name: 'Add booking location' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(`South clinic ${run}`);
  await page.getByLabel('Address').fill('1 Riverside Dr');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Booking locations' }).getByRole('cell', { name: `South clinic ${run}`, exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Remove South clinic ${run}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('table', { name: 'Booking locations' }).getByRole('cell', { name: `South clinic ${run}`, exact: true })).toHaveCount(0);
  await shot(page, '08-settings-admin');

  // A provider reads the lists and keeps their own calendar; it opens on the view they chose.
  page = await sessions.open(PROVIDER, '/new-settings/calendar');
  await expect(page.getByRole('table', { name: 'Appointment types' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add appointment type' })).toHaveCount(0);
  await page.getByRole('button', { name: /Calendar opens on/ }).click();
  await page.getByRole('option', { name: 'Month' }).click();
  await page.getByText('Saturday', { exact: true }).click();
  await expect(page.getByRole('switch', { name: 'Saturday' })).toBeChecked();
  await page.getByLabel('Saturday from').fill('09:00');
  await page.getByLabel('Saturday to').fill('12:00');
  await page.getByRole('button', { name: 'Save my calendar' }).click();
  await expect(page.getByText('Calendar settings saved')).toBeVisible();
  await shot(page, '09-settings-provider');
  await page.goto('/#/calendar?date=2027-03-04');
  await expect(page.getByRole('heading', { level: 2, name: 'March 2027' })).toBeVisible();
});

test("the grid shades the provider's hours; an appointment is dragged to move it and by its edge to resize it, one of a series alone, and moved by keyboard", async ({
  page,
}) => {
  test.setTimeout(150_000);
  // Tuesday 2027-06-08, Chicago on daylight time (UTC-5).
  await signIn(page, PROVIDER, '/calendar?date=2027-06-08&view=day');
  const me = (await apiAs(page, 'GET', '/v1/practices/users/me')).json;
  const settings = await apiAs(page, 'PUT', `/v1/calendar-settings/users/${me.userId}`, {
    defaultView: 'week',
    workingHours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '08:00', end: '17:00' })),
    blockedTimes: [{ weekday: 2, start: '12:00', end: '13:00', label: 'Lunch' }],
  });
  expect(settings.status).toBe(200);
  const booked = await apiAs(page, 'POST', '/v1/appointments', weeklyNewPatientVisits(String(me.userId), '2027-06-08T14:00:00.000Z', 30));
  expect(booked.status).toBe(201);
  await page.reload();

  await expect(page.getByText('Shaded: outside your working hours.')).toBeVisible();
  const day = page.locator('.tw-calendar__day');
  await expect(day.locator('[data-shade="off"]')).toHaveCount(2);
  await expect(day.locator('[data-shade="blocked"]')).toHaveText('Lunch');
  const nine = page.getByRole('button', { name: /^9:00 AM to 9:30 AM, .+, New patient visit with .+, repeats$/ });
  await expect(nine).toBeVisible();
  await shot(page, '10-working-hours');

  // Drag the 9:00 down an hour: a series asks, and "This one" moves only June 8.
  const box = (await nine.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 8);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + 30, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2, box.y + 8 + 48, { steps: 4 });
  await page.mouse.up();
  const scope = page.getByRole('alertdialog', { name: 'Recurring appointment' });
  await expect(scope).toContainText('Change only this one, on 06/08/2027, or the whole series?');
  await shot(page, '11-this-one-or-series');
  await scope.getByRole('button', { name: 'This one' }).click();
  const ten = page.getByRole('button', { name: /^10:00 AM to 10:30 AM, (?!.*, repeats$).+, New patient visit with .+$/ });
  await expect(ten).toBeVisible();
  await expect(nine).toHaveCount(0);

  // Its bottom edge dragged down an hour: 10:00 to 11:30, no question for a single appointment.
  const edge = ten.locator('xpath=..').getByTestId('resize');
  const e = (await edge.boundingBox())!;
  await page.mouse.move(e.x + e.width / 2, e.y + e.height / 2);
  await page.mouse.down();
  await page.mouse.move(e.x + e.width / 2, e.y + e.height / 2 + 48, { steps: 6 });
  await page.mouse.up();
  const longer = page.getByRole('button', { name: /^10:00 AM to 11:30 AM, .+, New patient visit/ });
  await expect(longer).toBeVisible();

  // By keyboard: Alt+Shift+Up shortens it a quarter hour, Alt+Down moves it a quarter hour later.
  await longer.focus();
  await page.keyboard.press('Alt+Shift+ArrowUp');
  const shorter = page.getByRole('button', { name: /^10:00 AM to 11:15 AM, / });
  await expect(shorter).toBeVisible();
  await shorter.focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByRole('button', { name: /^10:15 AM to 11:30 AM, / })).toBeVisible();

  // Dragged two hours later, into lunch: it asks first; Cancel leaves it where it was.
  const moved = page.getByRole('button', { name: /^10:15 AM to 11:30 AM, / });
  const m = (await moved.boundingBox())!;
  await page.mouse.move(m.x + m.width / 2, m.y + 8);
  await page.mouse.down();
  await page.mouse.move(m.x + m.width / 2, m.y + 8 + 96, { steps: 6 });
  await page.mouse.up();
  const ask = page.getByRole('alertdialog', { name: 'Blocked time' });
  await expect(ask).toContainText('overlaps');
  await expect(ask).toContainText('(Lunch)');
  await shot(page, '12-blocked-time');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(moved).toBeVisible();

  // A move onto another appointment of the provider is refused in plain words.
  await page.goto('/#/calendar?date=2027-06-15&view=day');
  await expect(page.getByRole('button', { name: /^9:00 AM to 9:30 AM, .+, repeats$/ })).toBeVisible();
  const booked2 = await apiAs(page, 'POST', '/v1/appointments', {
    patientId: 'pat-0001',
    appointmentTypeId: 'apt-demo-new-patient',
    providerId: me.userId,
    bookingLocationId: 'loc-demo-north',
    visitType: 'in_person',
    start: '2027-06-15T15:00:00.000Z',
    durationMinutes: 30,
  });
  expect(booked2.status).toBe(201);
  await page.reload();
  const series = page.getByRole('button', { name: /^9:00 AM to 9:30 AM, .+, repeats$/ });
  const s = (await series.boundingBox())!;
  await page.mouse.move(s.x + s.width / 2, s.y + 8);
  await page.mouse.down();
  await page.mouse.move(s.x + s.width / 2, s.y + 8 + 48, { steps: 6 });
  await page.mouse.up();
  await page.getByRole('alertdialog', { name: 'Recurring appointment' }).getByRole('button', { name: 'The whole series' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'is already booked on 06/15/2027 from 10:00 AM to 10:30 AM. Choose another time or provider.' }),
  ).toBeVisible();
  await expect(series).toBeVisible();
  await shot(page, '13-move-refused');
});

test('an admin sets how long before an appointment the reminder text goes, by keyboard, and turns it off; a provider only reads it', async ({
  page,
  sessions,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'admin@demo.tidewell.local', '/new-settings/calendar');
  const card = page.locator('.tw-card', { has: page.getByRole('heading', { level: 2, name: 'Appointment reminder texts' }) });
  const lead = card.getByRole('button', { name: /Send the reminder/ });
  await expect(lead).toContainText('Off');
  await lead.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: '1 day before' }).focus();
  await page.keyboard.press('Enter');
  await expect(lead).toContainText('1 day before');
  await card.getByRole('button', { name: 'Save reminder texts' }).click();
  await expect(page.getByText('Reminder texts saved')).toBeVisible();
  await shot(page, '10-reminder-texts');
  await page.reload();
  await expect(
    page
      .locator('.tw-card', { has: page.getByRole('heading', { level: 2, name: 'Appointment reminder texts' }) })
      .getByRole('button', { name: /Send the reminder/ }),
  ).toContainText('1 day before');
  expect((await apiAs(page, 'GET', '/v1/practices/settings/calendar')).json).toMatchObject({ reminderLeadHours: 24 });

  const provider = await sessions.open(PROVIDER, '/new-settings/calendar');
  const readOnly = provider.locator('.tw-card', { has: provider.getByRole('heading', { level: 2, name: 'Appointment reminder texts' }) });
  await expect(readOnly.getByRole('button', { name: /Send the reminder/ })).toBeDisabled();
  await expect(readOnly.getByRole('button', { name: 'Save reminder texts' })).toHaveCount(0);

  await page.getByRole('button', { name: /Send the reminder/ }).click();
  await page.getByRole('option', { name: 'Off' }).click();
  await page.getByRole('button', { name: 'Save reminder texts' }).click();
  await expect(page.getByText('Reminder texts turned off')).toBeVisible();
  expect((await apiAs(page, 'GET', '/v1/practices/settings/calendar')).json).toMatchObject({ reminderLeadHours: null });
});

test('a provider marks days off; the calendar stripes them and booking into them asks first', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/new-settings/calendar');
  const me = (await apiAs(page, 'GET', '/v1/practices/users/me')).json;
  const before = (await apiAs(page, 'GET', `/v1/calendar-settings/users/${me.userId}`)).json;
  await page.getByRole('button', { name: 'Add days off' }).click();
  await page.getByLabel('Days off 1 from').fill('2027-06-21');
  await page.getByLabel('Days off 1 to').fill('2027-06-22');
  await page.getByLabel('Days off 1 label').fill('Conference');
  await page.getByRole('button', { name: 'Save my calendar' }).click();
  await expect(page.getByText('Calendar settings saved')).toBeVisible();
  await shot(page, '15-days-off');

  // Tuesday 22 June is the last day off: striped whole, with its label; Wednesday is a working day again.
  await page.goto('/#/calendar?date=2027-06-22&view=day');
  const day = page.locator('.tw-calendar__day');
  await expect(day.locator('[data-shade="blocked"]')).toHaveText('Conference');
  await expect(day.locator('[data-shade="off"]')).toHaveCount(0);
  const dialog = await bookGraceAt(page, '10:00');
  const ask = page.getByRole('alertdialog', { name: 'Blocked time' });
  await expect(ask).toContainText('(Conference)');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByLabel('Time')).toHaveValue('10:00');
  await page.keyboard.press('Escape');
  await page.goto('/#/calendar?date=2027-06-23&view=day');
  await expect(page.locator('.tw-calendar__day [data-shade="blocked"]')).toHaveCount(0);

  expect((await apiAs(page, 'GET', `/v1/calendar-settings/users/${me.userId}`)).json.daysOff).toEqual([
    { from: '2027-06-21', to: '2027-06-22', label: 'Conference' },
  ]);
  const { defaultView, workingHours, blockedTimes } = before;
  expect((await apiAs(page, 'PUT', `/v1/calendar-settings/users/${me.userId}`, { defaultView, workingHours, blockedTimes, daysOff: [] })).status).toBe(200);
});

test('booking outside working hours asks first', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/calendar?date=2027-06-09&view=day');
  const dialog = await bookGraceAt(page, '18:30');
  const ask = page.getByRole('alertdialog', { name: 'Outside working hours' });
  await expect(ask).toContainText(/6:30 PM to 7:00 PM is outside .+'s working hours\. Book it anyway\?/);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  // Back in the dialog with what was typed.
  await expect(dialog.getByLabel('Time')).toHaveValue('18:30');
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  await page.getByRole('alertdialog', { name: 'Outside working hours' }).getByRole('button', { name: 'Book anyway' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /^6:30 PM to 7:00 PM, Grace Nakamura, Follow-up visit/ })).toBeVisible();
});

test('a provider creates their calendar feed link, which serves their appointments without patient names, and revokes it', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/new-settings/calendar');
  const card = page.locator('.tw-card').filter({ has: page.getByRole('heading', { level: 2, name: 'Calendar feed' }) });
  await expect(card.getByRole('status')).toBeVisible();
  // A link left from an earlier run is replaced by "Make a new feed link".
  await card.getByRole('button', { name: /^(Create feed link|Make a new feed link)$/ }).click();
  const link = card.getByLabel('Feed link (shown once: copy it now)');
  await expect(link).toHaveValue(/^http:\/\/.+\/v1\/calendar-feeds\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.ics$/);
  await shot(page, '14-feed-link');
  const url = await link.inputValue();
  // Read as a phone's calendar would: no token, no cookies.
  const feed = await page.request.get(url, { headers: { authorization: '' } });
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toMatch(/^text\/calendar/);
  const ics = await feed.text();
  expect(ics).toContain('BEGIN:VCALENDAR');
  expect(ics).not.toMatch(/SUMMARY:.*(Grace Nakamura|Aisha Rahman|Maria Lopez)/);

  await card.getByRole('button', { name: 'Revoke feed link' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke your calendar feed?' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(card.getByRole('status')).toHaveText('You have no feed link.');
  expect((await page.request.get(url)).status()).toBe(404);
});
