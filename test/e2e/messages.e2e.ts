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
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(PRACTICE);
  await page.getByLabel('Text', { exact: true }).fill(text);
  await page.getByRole('button', { name: /send|reply/i }).click();
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
    const badge = provider.getByTestId('menu-badge-communication');
    const before = Number((await badge.textContent({ timeout: 1_000 }).catch(() => '0')) ?? '0') || 0;
    await replyFromCarrierPage(carrier, IMANI.phone, `Can I move my appointment? ${stamp}`);
    await expect.poll(async () => Number((await badge.textContent().catch(() => '0')) ?? '0') || 0, { timeout: 20_000 }).toBeGreaterThan(before);
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
  const notes = await apiAs(provider, 'GET', `/v2/notes?patientId=${AISHA.id}&noteTypes=SMS&limit=50`);
  const saved = (notes.json.notes as { status: string; data: { text?: string } }[]).filter((n) => n.data.text === `Thanks, see you Tuesday ${stamp}`);
  expect(saved.map((n) => n.status)).toContain('DELIVERED');

  // Mark as Unread returns to /messages with the conversation unread.
  await selectMessage(provider, `Thanks, see you Tuesday ${stamp}`);
  await provider.getByRole('button', { name: 'Mark as Unread' }).click();
  await expect(provider.getByText('Successfully updated messages')).toBeVisible();
  await expect(provider).toHaveURL(/#\/messages$/);
  await expect(provider.getByTestId('conversation').filter({ hasText: /Aisha Rahman/ })).toBeVisible();
  await provider.screenshot({ path: `${SHOTS}/04-hub-unread.png` });
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
