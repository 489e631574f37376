import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { apiAs, PROVIDER, test } from './support/sign-in.js';

/** The demo practice's number (infra/local/seed/seed-practice.ts) and two demo patients' mobiles. */
const PRACTICE = '+15415550100';
const AISHA = { id: 'pat-0003', phone: '+15035550103', name: 'Aisha Rahman' };
const IMANI = { id: 'pat-0013', phone: '+14045550113' };
const SHOTS = 'test-results/screenshots/messages';

const chatPath = (patientPhone: string) => `/messages/sms/${encodeURIComponent(patientPhone)}/${encodeURIComponent(PRACTICE)}`;

/** A patient's phone answers through the local sandbox carrier's page, as a person would type it. */
async function replyFromCarrierPage(page: Page, from: string, text: string): Promise<void> {
  await page.goto('/local/carrier');
  // The form's fields are named as the POST body is: from, to, text.
  await page.locator('form [name=from]').fill(from);
  const to = page.locator('form [name=to]');
  if ((await to.evaluate((el) => el.tagName)) === 'SELECT') await to.selectOption(PRACTICE);
  else await to.fill(PRACTICE);
  await page.locator('form [name=text]').fill(text);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByRole('status')).toHaveText('Reply delivered to the practice.');
}

async function openToolbar(page: Page): Promise<void> {
  const plus = page.getByRole('button', { name: 'Message tools' });
  if ((await plus.getAttribute('aria-expanded')) !== 'true') await plus.click();
}

async function selectMessage(page: Page, text: string): Promise<void> {
  await openToolbar(page);
  await page.getByRole('button', { name: 'Select Messages' }).click();
  await page.getByRole('checkbox', { name: new RegExp(text) }).check();
}

test('a provider texts a patient; the reply arrives live in the open chat and the badge; Add to Chart and Mark as Unread', async ({ sessions }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const provider = await sessions.open(PROVIDER, '/messages/sms');

  // New-message mode: 'To:' with the patient search, then the chat.
  await expect(provider.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible();
  const to = provider.getByRole('combobox', { name: 'To:' });
  await to.fill('Aisha');
  await provider.getByRole('option', { name: /Aisha Rahman/ }).click();
  const composer = provider.getByPlaceholder('Type message...');
  await composer.fill(`Your results are ready ${stamp}`);
  await composer.press('Enter');
  await expect(provider).toHaveURL(new RegExp(`#${chatPath(AISHA.phone).replace(/[+%]/g, (c) => `\\${c}`)}$`));
  await expect(provider.getByRole('heading', { level: 1, name: /Aisha Rahman/ })).toBeVisible();
  await expect(provider.getByTestId('sms-message').filter({ hasText: `Your results are ready ${stamp}` })).toHaveAttribute('data-direction', 'outbound');
  await provider.screenshot({ path: `${SHOTS}/01-chat-after-send.png` });

  // The sandbox carrier recorded the text from the practice number.
  const outbound = await provider.request.get('/local/carrier/sms');
  expect(outbound.ok()).toBe(true);
  const recorded = (await outbound.json()) as { messages: { from: string; to: string; text: string }[] };
  expect(recorded.messages).toContainEqual(expect.objectContaining({ from: PRACTICE, to: AISHA.phone, text: `Your results are ready ${stamp}` }));

  // The patient replies on the local carrier's page, in another browser.
  const carrierContext = await provider.context().browser()!.newContext();
  try {
    const carrier = await carrierContext.newPage();
    await replyFromCarrierPage(carrier, AISHA.phone, `Thanks, see you Tuesday ${stamp}`);
    const reply = provider.getByTestId('sms-message').filter({ hasText: `Thanks, see you Tuesday ${stamp}` });
    await expect(reply).toHaveAttribute('data-direction', 'inbound', { timeout: 20_000 });

    // A text from a patient whose chat is not open stays unread and shows in the badge, live.
    const imani = await apiAs(provider, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: IMANI.phone, practicePhoneNumber: PRACTICE });
    const imaniId = (imani.json.conversation as { conversationId: string }).conversationId;
    expect((await apiAs(provider, 'PUT', `/v1/messaging/conversations/${imaniId}/mark-as-read`, {})).status).toBe(200);
    const badge = provider.getByTestId('menu-badge-communication');
    const badgeCount = async () => {
      const text = (await badge.textContent({ timeout: 500 }).catch(() => '0')) ?? '0';
      return text === '9+' ? 10 : Number(text) || 0;
    };
    // The badge is the unread calls (the calls count) plus the unread SMS and FAX notifications.
    const unread = async () => {
      const count = (await apiAs(provider, 'GET', '/v1/notifications/unread-count')).json as { byType: Record<string, number> };
      const calls = (await apiAs(provider, 'GET', '/v1/phone-calls/count')).json as { count: number };
      return Math.min(10, (count.byType.SMS ?? 0) + calls.count + (count.byType.FAX ?? 0));
    };
    const settled = await unread();
    await expect.poll(badgeCount, { timeout: 70_000 }).toBe(settled);
    const before = settled;
    await replyFromCarrierPage(carrier, IMANI.phone, `Can I move my appointment? ${stamp}`);
    await expect.poll(async () => Number((await badge.textContent().catch(() => '0')) ?? '0') || 0, { timeout: 20_000 }).toBeGreaterThan(before);
    // The practice texts Imani after her question (a reminder, say): her question stays what the list shows.
    expect(
      (await apiAs(provider, 'POST', `/v1/messaging/conversations/${imaniId}/messages`, { text: `Reminder: your visit is tomorrow ${stamp}` })).status,
    ).toBe(201);
  } finally {
    await carrierContext.close();
  }
  await provider.screenshot({ path: `${SHOTS}/02-chat-reply-live.png` });

  // Add to Chart: the selected reply becomes a delivered SMS note in Aisha's chart.
  await selectMessage(provider, `Thanks, see you Tuesday ${stamp}`);
  await provider.screenshot({ path: `${SHOTS}/03-select-messages.png` });
  await provider.getByRole('button', { name: 'Add to Chart' }).click();
  await expect(provider.getByText(/^Successfully added messages to Aisha Rahman \(\d+\)'s chart$/)).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Select Messages' })).toBeVisible();
  const notes = await apiAs(provider, 'GET', `/v2/notes?patientId=${AISHA.id}&noteTypes=SMS&statuses=DELIVERED&limit=50`);
  const saved = (notes.json.notes as { status: string; data: { text?: string } }[]).filter((n) => n.data.text === `Thanks, see you Tuesday ${stamp}`);
  expect(saved.map((n) => n.status)).toContain('DELIVERED');

  // In the chart, an SMS note opens as its conversation, read-only, with Select Messages.
  await provider.goto(`/#/patients/${AISHA.id}`);
  await provider.getByRole('button', { name: / Type$/ }).click();
  await provider.getByRole('option', { name: 'SMS', exact: true }).click();
  await provider.getByRole('button', { name: / Status$/ }).click();
  await provider.getByRole('option', { name: 'Delivered', exact: true }).click();
  await provider
    .getByRole('button', { name: new RegExp(`Your results are ready ${stamp}`) })
    .first()
    .click();
  const win = provider.locator('.tw-note-window').last();
  await expect(win.getByRole('group', { name: 'Messages' })).toContainText(`Thanks, see you Tuesday ${stamp}`);
  await expect(win.getByRole('textbox')).toHaveCount(0);
  await win.getByRole('button', { name: 'Select Messages' }).click();
  await expect(win.getByRole('checkbox', { name: new RegExp(`Your results are ready ${stamp}`) })).toBeVisible();
  await provider.screenshot({ path: `${SHOTS}/03b-chart-sms-note.png` });
  await win.getByRole('button', { name: 'Close note' }).click();

  // Mark as Unread returns to /messages with the conversation unread.
  await provider.goto(`/#${chatPath(AISHA.phone)}`);
  await selectMessage(provider, `Thanks, see you Tuesday ${stamp}`);
  await provider.getByRole('button', { name: 'Mark as Unread' }).click();
  await expect(provider.getByText('Successfully updated messages')).toBeVisible();
  await expect(provider).toHaveURL(/#\/messages$/);
  await expect(provider.getByTestId('conversation').filter({ hasText: /Aisha Rahman/ })).toBeVisible();
  const imaniRow = provider.getByTestId('conversation').filter({ hasText: /Imani Johnson/ });
  await expect(imaniRow).toBeVisible();
  await expect(imaniRow).toContainText(`Can I move my appointment? ${stamp}`);
  await expect(imaniRow).not.toContainText(`Reminder: your visit is tomorrow ${stamp}`);
  await provider.screenshot({ path: `${SHOTS}/04-hub-unread.png` });

  // Search narrows the conversations; opening one goes to its chat.
  await provider.getByRole('searchbox', { name: 'Search conversations' }).fill('Aisha');
  await expect(provider.getByTestId('conversation').filter({ hasText: /Imani Johnson/ })).toHaveCount(0);
  await provider
    .getByTestId('conversation')
    .filter({ hasText: /Aisha Rahman/ })
    .getByRole('link')
    .click();
  await expect(provider.getByRole('heading', { level: 1, name: /Aisha Rahman/ })).toBeVisible();
});

test('Send Later a few seconds ahead shows in the scheduled row, then as sent', async ({ sessions }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const provider = await sessions.open(PROVIDER, chatPath(AISHA.phone));
  await expect(provider.getByRole('heading', { level: 1, name: /Aisha Rahman/ })).toBeVisible();

  await provider.getByPlaceholder('Type message...').fill(`Reminder: fasting labs tomorrow ${stamp}`);
  await openToolbar(provider);
  await provider.getByRole('link', { name: 'Send Later' }).click();
  await expect(provider.getByRole('heading', { level: 1, name: 'Send Later' })).toBeVisible();
  await expect(provider.getByRole('textbox', { name: 'Message' })).toHaveValue(`Reminder: fasting labs tomorrow ${stamp}`);
  const when = await provider.evaluate(() => {
    const d = new Date(Date.now() + 12_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  });
  await provider.getByLabel('Send at').fill(when);
  await provider.screenshot({ path: `${SHOTS}/05-send-later.png` });
  await provider.getByRole('button', { name: 'Schedule message' }).click();
  await expect(provider.getByRole('heading', { level: 1, name: 'Scheduled message' })).toBeVisible();
  await expect(provider.getByTestId('scheduled-status')).toHaveText('Scheduled');

  await provider.getByRole('link', { name: 'Open conversation' }).click();
  const row = provider.getByTestId('scheduled-row');
  await expect(row.getByRole('button', { name: /^\d+ scheduled message\(s\)$/ })).toBeVisible();
  await row.getByRole('button', { name: /scheduled message/ }).click();
  await expect(row.getByText(`Reminder: fasting labs tomorrow ${stamp}`)).toBeVisible();
  await provider.screenshot({ path: `${SHOTS}/06-scheduled-row.png` });

  // The local scheduler fires it; the text arrives in the chat as sent, and leaves the row.
  const sent = provider.getByTestId('sms-message').filter({ hasText: `Reminder: fasting labs tomorrow ${stamp}` });
  await expect(sent).toHaveAttribute('data-direction', 'outbound', { timeout: 60_000 });
  await expect(row.getByText(`Reminder: fasting labs tomorrow ${stamp}`)).toHaveCount(0, { timeout: 20_000 });
  await provider.screenshot({ path: `${SHOTS}/07-scheduled-sent.png` });
});

/** Presses `key` until the focused element matches, at most `limit` times. */
async function focusBy(page: Page, key: string, matches: () => boolean, limit = 200): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if (await page.evaluate(matches)) return;
    await page.keyboard.press(key);
  }
  expect(await page.evaluate(matches), `focus reached by ${key}`).toBe(true);
}

test('the SMS chat works by keyboard alone', async ({ sessions }) => {
  const stamp = Date.now().toString(36);
  const provider = await sessions.open(PROVIDER, chatPath(AISHA.phone));
  await expect(provider.getByRole('heading', { level: 1, name: /Aisha Rahman/ })).toBeVisible();

  await focusBy(provider, 'Tab', () => (document.activeElement as HTMLTextAreaElement | null)?.placeholder === 'Type message...');
  await provider.keyboard.type(`Typed with the keyboard ${stamp}`);
  await provider.keyboard.press('Enter');
  const sent = provider.getByTestId('sms-message').filter({ hasText: `Typed with the keyboard ${stamp}` });
  await expect(sent).toHaveAttribute('data-direction', 'outbound');
  await expect(provider.getByPlaceholder('Type message...')).toHaveValue('');

  // Enter on a text shows its time (h:mm A).
  await provider.evaluate((text) => ((window as unknown as { typedText: string }).typedText = text), `Typed with the keyboard ${stamp}`);
  await focusBy(
    provider,
    'Shift+Tab',
    () =>
      document.activeElement?.tagName === 'BUTTON' &&
      document.activeElement.textContent?.includes((window as unknown as { typedText: string }).typedText) === true,
  );
  await provider.keyboard.press('Enter');
  await expect(sent.getByText(/^\d{1,2}:\d{2} (AM|PM)/)).toBeVisible();

  await focusBy(provider, 'Tab', () => document.activeElement?.getAttribute('aria-label') === 'Message tools');
  await provider.keyboard.press('Enter');
  await focusBy(provider, 'Tab', () => document.activeElement?.textContent === 'Select Messages');
  await provider.keyboard.press('Enter');
  await focusBy(provider, 'Shift+Tab', () => (document.activeElement as HTMLInputElement | null)?.type === 'checkbox');
  await provider.keyboard.press('Space');
  await expect(provider.getByRole('checkbox', { checked: true })).toHaveCount(1);
  await focusBy(provider, 'Tab', () => document.activeElement?.textContent === 'Cancel Selecting');
  await provider.keyboard.press('Enter');
  await expect(provider.getByRole('checkbox')).toHaveCount(0);
});

test('the ePHI waiver banner: the request is emailed, and accepting opens only after Read to Accept', async ({ sessions }) => {
  // Samuel Adeyemi (pat-0018) has not signed the waiver; no other test uses him.
  const provider = await sessions.open(PROVIDER, chatPath('+12025550118'));
  await expect(provider.getByRole('heading', { level: 1, name: /Samuel Adeyemi/ })).toBeVisible();
  const banner = provider.getByRole('region', { name: 'ePHI waiver' });
  await expect(banner).toContainText('has not signed the ePHI waiver');
  const accept = banner.getByRole('button', { name: "Accept on patient's behalf" });
  await expect(accept).toBeDisabled();

  await banner.getByRole('button', { name: 'Email waiver request' }).click();
  await expect(provider.getByText(/^The waiver was emailed to Samuel Adeyemi/)).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Waiver request sent' })).toBeDisabled();

  await banner.getByRole('button', { name: 'Read to Accept' }).click();
  await expect(banner.getByText(/I authorize the practice to send me messages/)).toBeVisible();
  await provider.screenshot({ path: `${SHOTS}/08-waiver-read.png` });
  await accept.click();
  await expect(banner).toHaveCount(0);
  const patient = await apiAs(provider, 'GET', '/v1/patients/pat-0018');
  expect(patient.json.hipaaAuthorizationAccepted).toBe(true);
});

test('a refused send keeps the typed text and says why; a wrong attachment is refused before sending', async ({ sessions, browser }) => {
  // Liam O'Connor (pat-0014): his phone opts out with STOP and back in with START.
  const liam = '+16145550114';
  const provider = await sessions.open(PROVIDER, chatPath(liam));
  await expect(provider.getByRole('heading', { level: 1, name: /Liam O'Connor/ })).toBeVisible();
  const carrierContext = await browser.newContext();
  try {
    const carrier = await carrierContext.newPage();
    await replyFromCarrierPage(carrier, liam, 'STOP');
    await expect(provider.getByText(/Opted out of texts/)).toBeVisible({ timeout: 20_000 });

    const composer = provider.getByPlaceholder('Type message...');
    await composer.fill('Your prescription is ready for pickup');
    await composer.press('Enter');
    await expect(provider.getByText('There was an error while sending your sms.')).toBeVisible();
    await expect(provider.getByText(/opted out of texts from the practice/).first()).toBeVisible();
    await expect(composer).toHaveValue('Your prescription is ready for pickup');
    await provider.screenshot({ path: `${SHOTS}/09-refused-send.png` });

    await openToolbar(provider);
    await provider.locator('input[type=file]').setInputFiles({ name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    await expect(provider.getByText('A selected file is either an unsupported file type or too large.')).toBeVisible();
    await expect(provider.getByRole('list', { name: 'Files to send' })).toHaveCount(0);

    await replyFromCarrierPage(carrier, liam, 'START');
    await expect(provider.getByText(/Opted out of texts/)).toHaveCount(0, { timeout: 20_000 });
    await composer.press('Enter');
    await expect(provider.getByTestId('sms-message').filter({ hasText: 'Your prescription is ready for pickup' }).last()).toHaveAttribute(
      'data-direction',
      'outbound',
    );
    await expect(composer).toHaveValue('');

    // Selected texts can be deleted: the kept, refused one leaves the conversation.
    const refused = provider.getByTestId('sms-message').filter({ hasText: /Not delivered/ });
    const refusedBefore = await refused.count();
    await openToolbar(provider);
    await provider.getByRole('button', { name: 'Select Messages' }).click();
    await provider
      .getByTestId('sms-message')
      .filter({ hasText: /Not delivered/ })
      .last()
      .getByRole('checkbox')
      .check();
    await provider.getByRole('button', { name: 'Delete', exact: true }).click();
    await provider.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(provider.getByText('Deleted 1 message')).toBeVisible();
    await expect(refused).toHaveCount(refusedBefore - 1);
  } finally {
    await carrierContext.close();
  }
});

test('a picture is sent with a text, recorded by the sandbox carrier and listed under the text', async ({ sessions }) => {
  const stamp = Date.now().toString(36);
  const provider = await sessions.open(PROVIDER, chatPath(IMANI.phone));
  await expect(provider.getByRole('heading', { level: 1, name: /Imani Johnson/ })).toBeVisible();
  await openToolbar(provider);
  // A 1×1 PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const ics = readFileSync(join(process.cwd(), 'test/fixtures/files/follow-up.ics'));
  await provider.locator('input[type=file]').setInputFiles([
    { name: `rash-${stamp}.png`, mimeType: 'image/png', buffer: png },
    { name: `visit-${stamp}.ics`, mimeType: 'text/calendar', buffer: ics },
  ]);
  await expect(provider.getByRole('list', { name: 'Files to send' })).toContainText(`rash-${stamp}.png`);
  // The chat attachment viewer signs a thumbnail's URL only after it has been on screen for 1000 ms.
  const signs: number[] = [];
  provider.on('request', (r) => {
    if (r.method() === 'GET' && r.url().includes('/v1/s3/files?key=') && r.url().includes(`rash-${stamp}`)) signs.push(Date.now());
  });
  await provider.getByPlaceholder('Type message...').fill(`Here is the photo ${stamp}`);
  await provider.getByRole('button', { name: 'Send', exact: true }).click();
  const sent = provider.getByTestId('sms-message').filter({ hasText: `Here is the photo ${stamp}` });
  const attachments = sent.getByRole('list', { name: 'Attachments' });
  await expect(attachments).toContainText(`rash-${stamp}.png`);
  const shownAt = Date.now();
  await expect(provider.getByRole('list', { name: 'Files to send' })).toHaveCount(0);
  const thumbnail = attachments.getByRole('button', { name: `rash-${stamp}.png` });
  await expect(thumbnail).toHaveAttribute('data-state', 'ready');
  expect(signs.length).toBe(1);
  // Playwright sees the list a poll after it renders; signing at once would come within that poll.
  expect(signs[0]! - shownAt).toBeGreaterThanOrEqual(700);
  expect(await thumbnail.evaluate((el) => el.getBoundingClientRect().width)).toBe(250);
  await provider.screenshot({ path: 'test-results/screenshots/messages/chat-attachments.png' });
  await thumbnail.click();
  const viewer = provider.getByRole('dialog', { name: `rash-${stamp}.png` });
  await expect(viewer.getByRole('img', { name: `rash-${stamp}.png` })).toBeVisible();
  await provider.screenshot({ path: 'test-results/screenshots/messages/chat-attachment-viewer.png' });
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toBeHidden();
  // Any other file is a card: Download opens the file and confirms with a toast.
  const popup = provider.waitForEvent('popup');
  await attachments.getByRole('button', { name: `Download visit-${stamp}.ics` }).click();
  await (await popup).close();
  await expect(provider.getByText(`Downloading visit-${stamp}.ics`)).toBeVisible();

  const outbound = (await (await provider.request.get('/local/carrier/sms')).json()) as {
    messages: { to: string; text: string; media: { contentType: string; size: number }[] }[];
  };
  const recorded = outbound.messages.find((m) => m.text === `Here is the photo ${stamp}`);
  expect(recorded?.to).toBe(IMANI.phone);
  expect(recorded?.media).toEqual(expect.arrayContaining([expect.objectContaining({ contentType: 'image/png', size: png.length })]));
});

test('a practice drive file picked in the composer goes with the text and shows in the chat', async ({ sessions }) => {
  const stamp = Date.now().toString(36);
  const folder = `Handouts ${stamp}`;
  const provider = await sessions.open(PROVIDER, chatPath(AISHA.phone));
  await expect(provider.getByRole('heading', { level: 1, name: /Aisha Rahman/ })).toBeVisible();
  // The drive holds a handout (as File Drive's upload puts it there) and a spreadsheet a text cannot carry.
  const pdf = readFileSync(join(process.cwd(), 'test/fixtures/files/lab-report.pdf'));
  const csv = readFileSync(join(process.cwd(), 'test/fixtures/files/glucose-log.csv'));
  for (const [name, type, bytes] of [
    [`handout-${stamp}.pdf`, 'application/pdf', pdf],
    [`glucose-${stamp}.csv`, 'text/csv', csv],
  ] as const) {
    const presign = await apiAs(provider, 'POST', '/v1/s3/files', { key: `public/${folder}/${name}`, contentType: type, size: bytes.length });
    expect(presign.status).toBe(200);
    expect(
      (
        await provider.request.put(String(presign.json.signedUrl), { headers: { 'content-type': type, origin: new URL(provider.url()).origin }, data: bytes })
      ).status(),
    ).toBe(200);
  }

  await openToolbar(provider);
  await provider.getByText('Select Practice Files in the Cloud').click();
  await expect(provider.getByText('Double click a file to add it')).toBeVisible();
  await provider.getByRole('button', { name: folder, exact: true }).click();
  await provider.locator('.tw-drive__row', { hasText: `glucose-${stamp}.csv` }).dblclick();
  await expect(provider.getByText('A selected file is either an unsupported file type or too large.')).toBeVisible();
  await expect(provider.getByRole('list', { name: 'Files to send' })).toHaveCount(0);
  await provider.locator('.tw-drive__row', { hasText: `handout-${stamp}.pdf` }).dblclick();
  const toSend = provider.getByRole('list', { name: 'Files to send' });
  await expect(toSend).toContainText(`handout-${stamp}.pdf`);
  // A second pick of the same file adds it once.
  await provider.locator('.tw-drive__row', { hasText: `handout-${stamp}.pdf` }).dblclick();
  await expect(toSend.getByRole('listitem')).toHaveCount(1);
  await provider.screenshot({ path: `${SHOTS}/drive-picker-in-composer.png` });

  // Only the drive file: a text may go without words.
  await provider.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(toSend).toHaveCount(0);
  const sentRow = provider.getByTestId('sms-message').filter({ hasText: `handout-${stamp}.pdf` });
  const attachments = sentRow.getByRole('list', { name: 'Attachments' });
  await expect(attachments.getByRole('button', { name: `Download handout-${stamp}.pdf` })).toBeVisible();
  // A text of files alone still has its bubble, for its time and status.
  await expect(sentRow.getByRole('button', { name: 'Sent: 1 attachment' })).toBeVisible();
  await provider.screenshot({ path: `${SHOTS}/drive-file-sent.png` });
  const popup = provider.waitForEvent('popup');
  await attachments.getByRole('button', { name: `Download handout-${stamp}.pdf` }).click();
  await (await popup).close();
  await expect(provider.getByText(`Downloading handout-${stamp}.pdf`)).toBeVisible();

  const outbound = (await (await provider.request.get('/local/carrier/sms')).json()) as {
    messages: { to: string; media: { key: string; contentType: string; size: number }[] }[];
  };
  const recorded = outbound.messages.find((m) => m.media.some((f) => f.key.endsWith(`/handout-${stamp}.pdf`)));
  expect(recorded?.to).toBe(AISHA.phone);
  expect(recorded?.media).toEqual([expect.objectContaining({ contentType: 'application/pdf', size: pdf.length })]);
});

test('a scheduled text can be moved to another time and cancelled', async ({ sessions }) => {
  const stamp = Date.now().toString(36);
  const provider = await sessions.open(PROVIDER, '/home');
  const created = await apiAs(provider, 'POST', '/v1/scheduled-events', {
    when: new Date(Date.now() + 86_400_000).toISOString(),
    eventType: 'createScheduledNote',
    service: 'notes',
    operationId: 'createNote',
    operationVersion: 'v2',
    invocations: 1,
    request: { noteType: 'SMS', patientId: AISHA.id, data: { from: PRACTICE, to: AISHA.phone, text: `Flu clinic on Saturday ${stamp}` } },
  });
  expect(created.status).toBeLessThan(300);
  await provider.goto(`/#/messages/scheduled/${String(created.json.eventId)}`);
  await expect(provider.getByRole('heading', { level: 1, name: 'Scheduled message' })).toBeVisible();
  await expect(provider.getByText(`Flu clinic on Saturday ${stamp}`)).toBeVisible();
  await expect(provider.getByTestId('scheduled-status')).toHaveText('Scheduled');

  const later = await provider.evaluate(() => {
    const d = new Date(Date.now() + 2 * 86_400_000);
    d.setHours(9, 30, 0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    return {
      input: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:30:00`,
      label: `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()} 9:30 AM`,
      iso: d.toISOString(),
    };
  });
  await provider.getByLabel('New send time').fill(later.input);
  await provider.getByRole('button', { name: 'Change time' }).click();
  await expect(provider.getByText(`The message will be sent ${later.label}`)).toBeVisible();
  await expect(provider.getByText(later.label, { exact: true })).toBeVisible();
  const moved = await apiAs(provider, 'GET', `/v1/scheduled-events/${String(created.json.eventId)}`);
  expect(Date.parse(String(moved.json.when))).toBe(Date.parse(later.iso));

  await provider.getByRole('button', { name: 'Cancel message' }).click();
  await provider.getByRole('alertdialog').getByRole('button', { name: 'Cancel message' }).click();
  await expect(provider.getByTestId('scheduled-status')).toHaveText('Cancelled');
  await expect(provider.getByRole('button', { name: 'Change time' })).toHaveCount(0);
});

test("the From selector lists the practice's numbers with their owners and sends from the one chosen", async ({ sessions }) => {
  const stamp = Date.now().toString(36);
  const second = '+15415550101';
  const admin = await sessions.open('admin@demo.tidewell.local', '/home');
  const before = (await apiAs(admin, 'GET', '/v1/practices/metadata')).json;
  const users = (await apiAs(admin, 'GET', '/v1/practices/users')).json as unknown as { userId: string; emailAddress: string }[];
  const owner = users.find((u) => u.emailAddress === PROVIDER)!;
  try {
    expect((await apiAs(admin, 'PUT', '/v1/practices/metadata', { additionalPhoneNumbers: [{ phoneNumber: second, owner: owner.userId }] })).status).toBe(200);
    const provider = await sessions.open(PROVIDER, chatPath(AISHA.phone));
    await expect(provider.getByRole('heading', { level: 1, name: /Aisha Rahman/ })).toBeVisible();
    await openToolbar(provider);
    await provider.getByRole('button', { name: /From$/ }).click();
    await expect(provider.getByRole('option', { name: '+1 (541) 555-0100 · Tidewell Demo Clinic' })).toBeVisible();
    await provider.getByRole('option', { name: '+1 (541) 555-0101 · Daniel Okafor' }).click();
    await expect(provider).toHaveURL(/%2B15415550101$/);
    await provider.getByPlaceholder('Type message...').fill(`From my line ${stamp}`);
    await provider.getByPlaceholder('Type message...').press('Enter');
    await expect(provider.getByTestId('sms-message').filter({ hasText: `From my line ${stamp}` })).toHaveAttribute('data-direction', 'outbound');
    const outbound = (await (await provider.request.get('/local/carrier/sms')).json()) as { messages: { from: string; to: string; text: string }[] };
    expect(outbound.messages).toContainEqual(expect.objectContaining({ from: second, to: AISHA.phone, text: `From my line ${stamp}` }));
  } finally {
    await apiAs(admin, 'PUT', '/v1/practices/metadata', { additionalPhoneNumbers: before.additionalPhoneNumbers ?? [] });
  }
});

test("a 'Sending' bubble shows while a text is under way; a send that fails removes it, keeps the text and says so", async ({ sessions }) => {
  const stamp = Date.now().toString(36);
  const provider = await sessions.open(PROVIDER, chatPath(AISHA.phone));
  await expect(provider.getByRole('heading', { level: 1, name: /Aisha Rahman/ })).toBeVisible();
  let calls = 0;
  await provider.route(/\/v1\/messaging\/conversations\/[^/]+\/messages$/, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    calls += 1;
    if (calls === 1) {
      // eslint-disable-next-line tidewell/no-fixed-sleep -- the slow network is the subject: the send is held so its 'Sending' bubble can be seen
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return route.continue();
    }
    return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Service Unavailable' }) });
  });
  const composer = provider.getByPlaceholder('Type message...');
  await composer.fill(`Slow network ${stamp}`);
  await composer.press('Enter');
  const sending = provider.getByTestId('sms-sending');
  await expect(sending).toContainText('Sending');
  await expect(composer).toHaveValue('');
  await provider.screenshot({ path: `${SHOTS}/10-sending-bubble.png` });
  await expect(sending).toHaveCount(0);
  await expect(provider.getByTestId('sms-message').filter({ hasText: `Slow network ${stamp}` })).toHaveAttribute('data-direction', 'outbound');

  await composer.fill(`No network ${stamp}`);
  await composer.press('Enter');
  await expect(provider.getByText('There was an error while sending your sms.')).toBeVisible();
  await expect(sending).toHaveCount(0);
  await expect(composer).toHaveValue(`No network ${stamp}`);
  await expect(provider.getByTestId('sms-message').filter({ hasText: `No network ${stamp}` })).toHaveCount(0);
});
