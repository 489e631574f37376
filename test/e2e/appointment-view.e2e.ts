import { expect, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
import { PRACTICE_ZONE, practiceDayOf, tomorrowAt } from './support/practice-day.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

/** An appointment opened from the calendar: its view, arrival status, reminder, chart link; the dashboard's day and the chart's next visits. */
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SHOTS = 'test-results/screenshots/appointment-view';
const MINUTE = 60_000;

const zoned = (d: Date) =>
  Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: PRACTICE_ZONE, hour: 'numeric', minute: '2-digit', hour12: true })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
const timeOf = (d: Date) => {
  const p = zoned(d);
  return `${p.hour}:${p.minute} ${p.dayPeriod}`;
};

/**
 * Books a 10-minute visit for the signed-in provider on tomorrow's practice day, the first free slot
 * from 10:00 AM (a visit left by an earlier run in the same data folder is passed over). The browser's
 * clock is put on that morning, so the visit is today's there and still ahead on the server.
 */
async function bookTomorrow(page: Page, patientId: string, providerId: string): Promise<{ appointmentId: string; start: Date }> {
  const first = tomorrowAt(10).getTime();
  for (let i = 0; i < 24; i++) {
    const start = new Date(first + i * 10 * MINUTE);
    const res = await apiAs(page, 'POST', '/v1/appointments', {
      patientId,
      appointmentTypeId: 'apt-demo-follow-up',
      providerId,
      bookingLocationId: 'loc-demo-north',
      visitType: 'in_person',
      start: start.toISOString(),
      durationMinutes: 10,
      notes: 'Bring the home blood pressure log',
    });
    if (res.status === 201) return { appointmentId: String(res.json.appointmentId), start };
    expect(res.status, JSON.stringify(res.json)).toBe(409);
  }
  throw new Error('no free 10-minute slot left tomorrow morning');
}

for (const viewport of VIEWPORTS) {
  test(`an appointment opens on its view: arrival by keyboard, a reminder sent now, the chart's next visit; the dashboard shows the day (${viewport.width} px)`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.clock.install({ time: tomorrowAt(8) });
    const at = (screen: string) => `${screen} (${viewport.name} ${viewport.width}px)`;
    const run = `${Date.now().toString(36)}${viewport.width}`;
    await signIn(page, PROVIDER, '/home');
    const me = (await apiAs(page, 'GET', '/v1/practices/users/me')).json as { userId: string; firstName: string; lastName: string; name: string };
    const mobile = `+1970${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const created = await apiAs(page, 'POST', '/v1/patients', {
      firstName: 'Nora',
      lastName: `Arrival${run}`,
      gender: 'female',
      dob: '1979-04-05',
      phones: [{ type: 'mobile', number: mobile }],
      primaryPhoneNumber: mobile,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const patientId = String(created.json.id);
    const lastName = `Arrival${run}`;
    const { start } = await bookTomorrow(page, patientId, me.userId);

    // The dashboard's day lists it with its time, a link to the chart and its arrival status.
    await page.reload();
    const day = page.getByRole('region', { name: "Provider's Day" });
    // A fresh server loads the dashboard's handlers on their first request.
    await expect(day).toBeVisible({ timeout: 60_000 });
    const row = day.getByRole('listitem').filter({ has: page.getByRole('link', { name: new RegExp(lastName) }) });
    await expect(row).toContainText(timeOf(start), { timeout: 30_000 });
    await expect(row).toContainText('Scheduled');
    await expectAccessible(page, at("dashboard with the provider's day"));
    await page.screenshot({ path: `${SHOTS}/dashboard-${viewport.width}.png`, fullPage: true });

    // Opened from the calendar (by keyboard), it shows its view, not the edit form.
    await page.goto(`/#/calendar?date=${practiceDayOf(start)}&view=day`);
    const event = page.getByRole('button', { name: new RegExp(`^${timeOf(start)} to .+, Nora ${lastName}, Follow-up visit with `) });
    await event.focus();
    await page.keyboard.press('Enter');
    const view = page.getByRole('dialog', { name: 'Appointment' });
    await expect(view.getByRole('link', { name: `Open Nora ${lastName}'s chart` })).toBeVisible();
    await expect(view).toContainText('Bring the home blood pressure log');
    const arrival = view.getByRole('radiogroup', { name: 'Arrival status' });
    await expect(arrival.getByRole('radio')).toHaveCount(5);
    for (const status of ['Scheduled', 'Arrived', 'In room', 'Seen', 'No-show'])
      await expect(arrival.getByRole('radio', { name: status, exact: true })).toHaveCount(1);
    await expect(arrival.getByRole('radio', { name: 'Scheduled' })).toBeChecked();
    await expectAccessible(page, at('appointment view'));

    // Arrived, by keyboard: Tab into the group lands on the chosen status, an arrow key moves it.
    await arrival.getByRole('radio', { name: 'Scheduled' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(arrival.getByRole('radio', { name: 'Arrived' })).toBeChecked();
    await expect
      .poll(
        async () =>
          ((await apiAs(page, 'GET', `/v1/appointments/upcoming?patientId=${patientId}`)).json.visits as { arrivalStatus: string }[])[0]?.arrivalStatus,
      )
      .toBe('arrived');

    // Send reminder: the text goes to the patient's mobile number now, and the view says so.
    await view.getByRole('button', { name: 'Send reminder' }).click();
    await expect(view.getByRole('status')).toHaveText(`Reminder sent to the mobile number ending in ${mobile.slice(-4)}.`);
    const texts = (await (await page.request.get('/local/carrier/sms')).json()) as { messages: { to: string; text: string }[] };
    expect(texts.messages.filter((m) => m.to === mobile).map((m) => m.text)).toEqual([
      expect.stringMatching(/^Reminder: you have an appointment with .+ Reply STOP to opt out of texts\.$/),
    ]);
    await expectAccessible(page, at('appointment view after a reminder'));
    await page.screenshot({ path: `${SHOTS}/view-${viewport.width}.png` });

    // Edit opens the booking form on the same appointment.
    await view.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog', { name: 'Edit appointment' });
    await expect(form.getByRole('button', { name: 'Cancel appointment' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
    // The calendar says where the patient is.
    await expect(page.getByRole('button', { name: new RegExp(`Nora ${lastName}, Follow-up visit with .+, Arrived$`) })).toBeVisible();

    // The chart link opens the chart; its header shows the next visit, when and with whom.
    await page.getByRole('button', { name: new RegExp(`Nora ${lastName}, Follow-up visit`) }).click();
    await page
      .getByRole('dialog', { name: 'Appointment' })
      .getByRole('link', { name: `Open Nora ${lastName}'s chart` })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(`Nora ${lastName}`) })).toBeVisible();
    const next = page.getByRole('list', { name: 'Next visits' });
    const [y, m, d] = practiceDayOf(start).split('-');
    await expect(next.getByRole('listitem')).toHaveText([
      new RegExp(`${m}/${d}/${y} at ${timeOf(start)} with ${me.name ?? `${me.firstName} ${me.lastName}`} \\(Arrived\\)$`),
    ]);
    await expectAccessible(page, at('chart with next visits'));
    await page.screenshot({ path: `${SHOTS}/chart-${viewport.width}.png` });
  });
}
