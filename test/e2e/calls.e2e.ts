import { expect } from '@playwright/test';
import { openChart } from './support/chart.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots/calls';

test("a contact's name shows on their call, and its voicemail plays in the browser", async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const last4 = String(1000 + (Number.parseInt(stamp.slice(-4), 36) % 8000));
  await signIn(page, PROVIDER, '/home');

  // Add the contact from the contacts screen, as a user would.
  await page.goto('/#/contacts/list/new');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Harbor');
  await page.getByLabel('Last name').fill(`Lab${stamp}`);
  await page.getByLabel('Phone number').fill(`(206) 555-${last4}`);
  await page.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByText('Contact saved')).toBeVisible();

  // The contact calls the practice and leaves a voicemail (the local telephony stand-in).
  await page.goto('/#/messages/calls');
  await expect(page.getByRole('heading', { level: 1, name: 'Phone calls' })).toBeVisible();
  await page.getByLabel('Incoming call from').fill(`206-555-${last4}`);
  await page.getByRole('button', { name: 'Simulate call with voicemail' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'left a voicemail' })).toBeVisible();

  await page.getByLabel('Search').fill(`Lab${stamp}`);
  const row = page.getByTestId('call-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Harbor Lab${stamp} ((206) 555-${last4})`);
  await expect(row).toContainText('Unread');

  await row.getByRole('button', { name: `Play voicemail from Harbor Lab${stamp} ((206) 555-${last4})` }).click();
  const audio = row.locator('audio');
  await expect(audio).toBeVisible();
  // The browser loads and decodes the recording: it has a duration and plays forward.
  await expect
    .poll(async () => audio.evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : 0)), { timeout: 15_000 })
    .toBeGreaterThan(5);
  await audio.evaluate(async (a: HTMLAudioElement) => {
    a.muted = true;
    await a.play();
  });
  await expect.poll(async () => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 15_000 }).toBeGreaterThan(0);
  await page.screenshot({ path: `${SHOTS}/voicemail.png`, fullPage: true });

  // Marked read, it leaves the unread calls count that the Communication badge polls.
  const before = Number((await apiAs(page, 'GET', '/v1/phone-calls/count')).json.count);
  await row.getByRole('button', { name: 'Mark as read' }).click();
  await expect(row).not.toContainText('Unread');
  expect(Number((await apiAs(page, 'GET', '/v1/phone-calls/count')).json.count)).toBe(before - 1);
});

test("click-to-call asks for the user's phone, then places the call and lists it", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, PROVIDER, '/home');
  await page.goto('/#/contacts/dial-pad');
  await page.getByLabel('Number', { exact: true }).fill('5035550199');
  await page.getByRole('link', { name: 'Call (503) 555-0199' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New phone call' })).toBeVisible();
  await expect(page.getByLabel('Number to call')).toHaveValue('(503) 555-0199');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('User missing phone number');
  await expect(page.getByLabel('Number to call')).toHaveValue('(503) 555-0199');
  await page.getByLabel('Your phone').fill('(541) 555-3131');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Phone calls' })).toBeVisible();
  await page.getByLabel('Recipient').fill('5035550199');
  const row = page.getByTestId('call-row').first();
  await expect(row).toContainText('Outgoing');
  await expect(row).toContainText('Completed', { timeout: 20_000 });
  await page.screenshot({ path: `${SHOTS}/click-to-call.png`, fullPage: true });
});

test("a received fax and a voicemail open read-only in the patient's chart, the fax with its pages and the voicemail playable", async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const last4 = String(1000 + (Number.parseInt(stamp.slice(-4), 36) % 8000));
  const phone = `+1971555${last4}`;
  await signIn(page, PROVIDER, '/home');
  const patient = await apiAs(page, 'POST', '/v1/patients', {
    firstName: 'Vera',
    lastName: `Voice${stamp}`,
    gender: 'female',
    dob: '1980-04-05',
    primaryPhoneNumber: phone,
  });
  expect(patient.status).toBe(201);
  const patientId = String(patient.json.id);
  expect((await page.request.post('/local/fax/inbound', { data: { from: phone } })).ok()).toBe(true);
  expect((await page.request.post('/local/telephony/inbound', { data: { from: phone } })).ok()).toBe(true);

  await openChart(page, patientId);
  const notes = page.getByRole('region', { name: 'Notes', exact: true });
  await notes.getByRole('button', { name: /Status/ }).click();
  await page.getByRole('option', { name: 'All statuses', exact: true }).click();
  await notes.getByRole('button', { name: /Type/ }).click();
  await page.getByRole('option', { name: 'Fax', exact: true }).click();
  await page
    .getByRole('list', { name: 'Notes' })
    .getByRole('button', { name: /Fax received from/ })
    .click();
  const win = page.locator('.tw-note-window');
  const pages = win.getByRole('region', { name: 'Faxed pages' });
  await expect(pages.locator('.tw-pdf-viewer[data-state=ready] canvas')).toBeVisible({ timeout: 30_000 });
  await expect(win.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/fax-note.png`, fullPage: true });
  await win
    .getByRole('button', { name: /^Close/ })
    .first()
    .click();

  await notes.getByRole('button', { name: /Type/ }).click();
  await page.getByRole('option', { name: 'Phone Call', exact: true }).click();
  await page
    .getByRole('list', { name: 'Notes' })
    .getByRole('button', { name: /Voicemail from/ })
    .click();
  const voicemail = page.locator('.tw-note-window').getByRole('region', { name: 'Voicemail' });
  await expect(voicemail.locator('audio')).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(async () => voicemail.locator('audio').evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : 0)), { timeout: 15_000 })
    .toBeGreaterThan(5);
  await page.screenshot({ path: `${SHOTS}/voicemail-note.png`, fullPage: true });
});

test('a caller who hangs up during the greeting becomes a missed call, in the calls list and as a PHONE_CALL note in their chart', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const last4 = String(1000 + (Number.parseInt(stamp.slice(-4), 36) % 8000));
  const phone = `+1458555${last4}`;
  await signIn(page, PROVIDER, '/home');
  const patient = await apiAs(page, 'POST', '/v1/patients', {
    firstName: 'Hana',
    lastName: `Hangup${stamp}`,
    gender: 'female',
    dob: '1975-09-12',
    primaryPhoneNumber: phone,
  });
  expect(patient.status).toBe(201);
  const patientId = String(patient.json.id);

  await page.goto('/#/messages/calls');
  await expect(page.getByRole('heading', { level: 1, name: 'Phone calls' })).toBeVisible({ timeout: 60_000 });
  await page.getByLabel('Incoming call from').fill(`458-555-${last4}`);
  await page.getByRole('button', { name: 'Simulate hang-up during greeting' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'hung up during the greeting' })).toBeVisible();
  await page.getByLabel('Search').fill(`Hangup${stamp}`);
  const row = page.getByTestId('call-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Incoming, Completed');
  await expect(row).toContainText('Unread');
  await page.screenshot({ path: `${SHOTS}/hang-up.png`, fullPage: true });

  // After the wait for a late message (a few seconds locally), the call is announced as missed.
  const calls = await apiAs(page, 'GET', `/v1/phone-calls?caller=${last4}`);
  const ident = String((calls.json.calls as { ident: string; caller: string }[]).find((c) => c.caller === phone)!.ident);
  await expect
    .poll(
      async () => {
        const found = await apiAs(page, 'GET', `/v1/notifications?notificationType=PHONE_CALL&sourceId=${ident}`);
        const list = (Array.isArray(found.json) ? found.json : found.json.notifications) as { text: string }[];
        return list.map((n) => n.text);
      },
      { timeout: 30_000 },
    )
    .toEqual([`Missed call from (458) 555-${last4} (Hana Hangup${stamp})`]);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Phone calls' })).toBeVisible({ timeout: 60_000 });
  await page.getByLabel('Search').fill(`Hangup${stamp}`);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Incoming, Completed, 4 s, missed call');

  await openChart(page, patientId);
  const notes = page.getByRole('region', { name: 'Notes', exact: true });
  await notes.getByRole('button', { name: /Status/ }).click();
  await page.getByRole('option', { name: 'All statuses', exact: true }).click();
  await notes.getByRole('button', { name: /Type/ }).click();
  await page.getByRole('option', { name: 'Phone Call', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Notes' }).getByRole('button', { name: /Missed call from/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/hang-up-note.png`, fullPage: true });
});
