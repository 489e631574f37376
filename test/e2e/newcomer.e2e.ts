import { expect, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.js';
import { openChart } from './support/chart.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

/*
 * A newcomer's first look at `npm start`'s week of clinic life (its own server with
 * TIDEWELL_DEMO_WEEK=1, see playwright.config.ts): the dashboard has a day, texts and drafts; a
 * chart has history; a text is answered; the voicemail plays; a lab trend opens; a reminder and a
 * task are started from the chart with its patient filled in. axe at 1280 and 390 px on each screen.
 */
const WHITAKER = 'pat-0002';
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

async function bothWidths(page: Page, screen: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${screen} (${viewport.width} px)`);
  }
  await page.setViewportSize(VIEWPORTS[0]);
}

async function palette(page: Page, typed: string, pick: string): Promise<void> {
  await page.keyboard.press('Control+k');
  const search = page.getByRole('dialog', { name: 'Command palette' }).getByRole('searchbox');
  await expect(search).toBeFocused();
  await search.fill(typed);
  await page.getByRole('menuitem', { name: pick, exact: true }).click();
}

test('a newcomer walks the seeded week: dashboard, a chart with history, a reply, the voicemail, a lab trend, a reminder and a task from the chart', async ({ page }) => {
  // About 50 s on an idle machine; a busy two-core CI box takes up to four times that.
  test.setTimeout(240_000);
  await page.setViewportSize(VIEWPORTS[0]);
  await signIn(page, PROVIDER, '/home');

  // The dashboard: today's visits, unread texts and Dr. Okafor's drafts.
  const day = page.getByRole('region', { name: "Provider's Day" });
  await expect(day.getByRole('listitem').first()).toBeVisible({ timeout: 60_000 });
  const unread = page.getByRole('region', { name: 'Unread Messages' });
  await expect(unread).toContainText(/Messages[1-9]\d*\s*unread/);
  await expect(page.getByRole('region', { name: 'My Drafts' }).getByRole('listitem').first()).toBeVisible();
  await bothWidths(page, 'seeded dashboard');

  // A chart with history: James Whitaker's problems and his signed notes.
  await openChart(page, WHITAKER);
  await expect(page.getByText('Essential hypertension').first()).toBeVisible();
  await expect(page.getByText('Ibuprofen').first()).toBeVisible();
  await bothWidths(page, "James Whitaker's chart");

  // From the chart the palette starts a task and a reminder about him ("remind" finds it).
  await palette(page, 'task', 'Create a new task');
  await expect(page).toHaveURL(/#\/tasks\/new\?patientId=pat-0002$/);
  await expect(page.getByRole('combobox', { name: /Patient/ })).toHaveValue(/Whitaker/);
  await openChart(page, WHITAKER);
  await palette(page, 'remind', 'Create a reminder');
  const form = page.getByRole('form', { name: 'New reminder' });
  await expect(form).toContainText('About James Whitaker');
  await bothWidths(page, 'new reminder on the dashboard');
  await form.getByLabel('Reminder').fill('Ask James about his home BP log');
  await form.getByLabel('Reminder').focus();
  await page.keyboard.press('Enter');
  await expect(form).toHaveCount(0);
  const mine = await apiAs(page, 'GET', '/v1/reminders?open=true');
  expect(mine.json.reminders).toContainEqual(expect.objectContaining({ text: 'Ask James about his home BP log', patientId: WHITAKER }));

  // Communication: the patient's unread question is answered.
  await page.goto('/#/messages');
  const conversation = page.getByTestId('conversation').filter({ hasText: /Aisha Rahman/ });
  await conversation.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: /Aisha Rahman/ })).toBeVisible();
  const composer = page.getByPlaceholder('Type message...');
  await composer.fill('See you at 11:15, Aisha.');
  await composer.press('Enter');
  await expect(page.getByTestId('sms-message').filter({ hasText: 'See you at 11:15, Aisha.' })).toHaveAttribute('data-direction', 'outbound');
  await bothWidths(page, 'conversation after a reply');

  // Calls: the voicemail plays in the browser.
  await page.goto('/#/messages/calls');
  const play = page.getByRole('button', { name: /^Play voicemail from / }).first();
  await play.click();
  const audio = page.locator('audio').first();
  await expect.poll(async () => audio.evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : 0)), { timeout: 15_000 }).toBeGreaterThan(1);
  await audio.evaluate(async (a: HTMLAudioElement) => {
    a.muted = true;
    await a.play();
  });
  await expect.poll(async () => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 15_000 }).toBeGreaterThan(0);
  await bothWidths(page, 'calls with a voicemail');

  // Labs: Michael Chen's A1c waits for review; its trend shows three draws.
  await page.goto('/#/home');
  await page.getByRole('region', { name: 'Results to Review' }).getByRole('link', { name: /^Michael Chen, / }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Result for Michael Chen' })).toBeVisible();
  await page.getByRole('button', { name: /^Trend of Hemoglobin A1c/ }).first().click();
  const trend = page.getByRole('dialog', { name: /over time$/ });
  await expect(trend.getByRole('table').locator('tbody tr')).toHaveCount(3);
  await bothWidths(page, 'A1c trend');
});
