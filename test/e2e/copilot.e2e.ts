import { expect, type Page } from '@playwright/test';
import { openChart } from './support/chart.js';
import { apiAs, PROVIDER, test } from './support/sign-in.js';

/**
 * The Copilot window with a patient in context. `npm start` runs here with the local rule-based
 * assistant (TIDEWELL_AI_LOCAL_ASSISTANT=1 in playwright.config.ts): an OpenAI-compatible endpoint
 * that answers from the chart summary the server read, labelled as no language model.
 */
const ADMIN = 'admin@demo.tidewell.local';
const AISHA = 'pat-0003';
const SHOTS = 'test-results/screenshots/copilot';

async function openCopilotFromPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+K');
  await page.keyboard.type('New Interaction');
  await page.getByRole('menuitem', { name: 'New Interaction', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Copilot', exact: true }).click();
}

test('Copilot with a patient in context: title, a streamed reply from the chart, history search, new chat, closes on route change', async ({ sessions }) => {
  test.setTimeout(180_000);
  const admin = await sessions.open(ADMIN, '/home');
  const gates = await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { tidewell_copilot: true, ai_streaming: true } });
  expect(gates.status).toBe(200);
  expect(await apiAs(admin, 'POST', `/v1/patients/${AISHA}/allergies`, { name: `Latex ${Date.now().toString(36)}`, severity: 'moderate' })).toMatchObject({
    status: 201,
  });

  const page = await sessions.open(PROVIDER, '/home');
  await openChart(page, AISHA);
  await openCopilotFromPalette(page);
  const win = page.getByRole('dialog', { name: /^Copilot Chat - Aisha Rahman \(\d+\)$/ });
  await expect(win).toBeVisible();
  await expect(win.getByText('How can I help you?')).toBeVisible();
  const input = win.getByPlaceholder('Ask Copilot about Aisha Rahman');
  await expect(input).toBeFocused();
  expect(await win.evaluate((el) => el.getBoundingClientRect().height)).toBe(600);

  // Blank input is ignored; Shift+Enter is a new line, Enter sends.
  await input.press('Enter');
  await expect(win.locator('.tw-copilot__message')).toHaveCount(1);
  const stamp = Date.now().toString(36);
  await input.fill(`Which allergies ${stamp}?`);
  await input.press('Shift+Enter');
  await expect(input).toHaveValue(`Which allergies ${stamp}?\n`);
  await input.press('Backspace');
  await input.press('Enter');
  await expect(input).toHaveValue('');
  // The patient-context message goes in once, then the question, then the reply as it streams.
  await expect(win.getByText(/Patient in context: Aisha Rahman \(\d+\)\.$/)).toBeVisible();
  const reply = win.locator('.tw-copilot__message--assistant').last();
  await expect(reply).toContainText('Local rule-based assistant (no language model)');
  await expect(reply).toContainText(/Allergies: .*Latex/);
  await expect(reply).toContainText(`You asked: "Which allergies ${stamp}?"`);
  await expect(win.getByText('Local rule-based assistant (no language model)', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/01-streamed-reply.png` });

  // A second question in the same conversation: no second context message.
  await input.fill('And medications?');
  await input.press('Enter');
  await expect(win.locator('.tw-copilot__message--assistant').last()).toContainText('You asked: "And medications?"');
  await expect(win.getByText(/Patient in context:/)).toHaveCount(1);

  // History: 'Recent', search (debounced), and the empty text.
  await win.getByRole('button', { name: 'Chat history' }).click();
  const history = win.getByRole('complementary', { name: 'Chat history' });
  await expect(history.getByRole('heading', { name: 'Recent' })).toBeVisible();
  const search = history.getByRole('searchbox', { name: 'Search' });
  await expect(search).toHaveAttribute('placeholder', 'Search for chats');
  await search.fill(stamp);
  await expect(history.getByRole('button', { name: `Which allergies ${stamp}?` })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/02-history-search.png` });
  await search.fill(`nothing-${stamp}`);
  await expect(history.getByText('No conversations found.')).toBeVisible();
  await search.fill(stamp);

  // New chat: only the greeting; the earlier conversation opens again from the history.
  await win.getByRole('button', { name: 'New chat' }).click();
  await expect(win.locator('.tw-copilot__message')).toHaveCount(1);
  await history.getByRole('button', { name: `Which allergies ${stamp}?` }).click();
  await expect(win.locator('.tw-copilot__message--assistant').last()).toContainText('You asked: "And medications?"');
  await expect(history.getByRole('button', { name: `Which allergies ${stamp}?` })).toHaveAttribute('aria-current', 'true');

  // The window closes (and forgets) on a route change.
  await page.goto('/#/patients');
  await expect(win).toHaveCount(0);
});

test('the chat says it failed when the reply fails, and keeps the question', async ({ sessions }) => {
  const admin = await sessions.open(ADMIN, '/home');
  expect((await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { tidewell_copilot: true, ai_streaming: true } })).status).toBe(200);
  const page = await sessions.open(PROVIDER, '/home');
  await openChart(page, AISHA);
  // The stream is refused as a dropped connection would be.
  await page.route('**/lambda-url/ai/**', (route) => route.abort('connectionreset'));
  await openCopilotFromPalette(page);
  const win = page.getByRole('dialog', { name: /^Copilot Chat - Aisha Rahman/ });
  const input = win.getByPlaceholder('Ask Copilot about Aisha Rahman');
  await input.fill('Summarize the visit');
  await input.press('Enter');
  await expect(win.getByText('Error: Failed to get response. Please try again.')).toBeVisible();
  await expect(input).toHaveValue('Summarize the visit');
});

test("a practice without a model: the bubble fails and a toast says 'ECS AI endpoint not configured'", async ({ sessions }) => {
  const admin = await sessions.open(ADMIN, '/home');
  expect((await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { tidewell_copilot: true, ai_streaming: true } })).status).toBe(200);
  const page = await sessions.open(PROVIDER, '/home');
  await openChart(page, AISHA);
  // What the function URL answers when the practice has no model (test/integration/copilot.int.test.ts).
  await page.route('**/lambda-url/ai/**', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'ECS AI endpoint not configured' }) }),
  );
  await openCopilotFromPalette(page);
  const win = page.getByRole('dialog', { name: /^Copilot Chat - Aisha Rahman/ });
  const input = win.getByPlaceholder('Ask Copilot about Aisha Rahman');
  await input.fill('Summarize the visit');
  await input.press('Enter');
  await expect(win.getByText('Error: Failed to get response. Please try again.')).toBeVisible();
  await expect(page.getByText('ECS AI endpoint not configured')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/03-not-configured.png` });
});

test('the window moves by its header and by the arrow keys; a long conversation loads older messages on scrolling to the top', async ({ sessions }) => {
  test.setTimeout(180_000);
  const admin = await sessions.open(ADMIN, '/home');
  expect((await apiAs(admin, 'PUT', '/v1/practices/feature-gates', { flags: { tidewell_copilot: true, ai_streaming: true } })).status).toBe(200);
  const page = await sessions.open(PROVIDER, '/home');
  // 15 questions and answers (30 messages): more than one page of 25.
  const stamp = Date.now().toString(36);
  const conversationId = `e2e-long-${stamp}`;
  const history: { role: string; content: string }[] = [];
  for (let i = 1; i <= 15; i++) {
    history.push({ role: 'user', content: `Long ${stamp} question ${i}` });
    const res = await apiAs(page, 'POST', '/v1/ai/conversation', { conversationId, entryPointPath: '/home', messages: history });
    expect(res.status).toBe(200);
    history.push({ role: 'assistant', content: res.json.content as string });
  }

  await page.keyboard.press('Control+K');
  await page.keyboard.type('New Interaction');
  await page.getByRole('menuitem', { name: 'New Interaction', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Copilot', exact: true }).click();
  const win = page.getByRole('dialog', { name: 'Copilot Chat' });
  await expect(win).toBeVisible();
  await expect(win.getByPlaceholder('Ask Copilot')).toBeVisible();

  const before = (await win.boundingBox())!;
  const header = win.locator('.tw-copilot__header');
  const grab = (await win.getByRole('heading', { name: 'Copilot Chat' }).boundingBox())!;
  await page.mouse.move(grab.x + 10, grab.y + 5);
  await page.mouse.down();
  await page.mouse.move(grab.x - 190, grab.y - 95, { steps: 5 });
  await page.mouse.up();
  const dragged = (await win.boundingBox())!;
  expect(Math.round(before.x - dragged.x)).toBe(200);
  expect(Math.round(before.y - dragged.y)).toBe(100);
  await header.getByRole('button', { name: /Move the Copilot window/ }).press('ArrowRight');
  expect(Math.round((await win.boundingBox())!.x - dragged.x)).toBe(24);

  await win.getByRole('button', { name: 'Chat history' }).click();
  const history_ = win.getByRole('complementary', { name: 'Chat history' });
  await history_.getByRole('searchbox', { name: 'Search' }).fill(`Long ${stamp}`);
  await history_.getByRole('button', { name: `Long ${stamp} question 1`, exact: true }).click();
  const messages = win.locator('.tw-copilot__message');
  await expect(messages.last()).toContainText(`question 15`);
  await expect(messages).toHaveCount(25);
  await win.getByRole('log', { name: 'Copilot conversation' }).evaluate((el) => (el.scrollTop = 0));
  await expect(messages).toHaveCount(30);
  await expect(messages.first()).toHaveText(`You: Long ${stamp} question 1`);
  await page.screenshot({ path: `${SHOTS}/04-older-messages.png` });
});
