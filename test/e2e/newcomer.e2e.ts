import { expect, type Page } from '@playwright/test';
import { zonedParts } from '../../shared/calendar/recurrence.js';
import { providerVisitTimesOn } from '../../infra/local/seed/demo-week.js';
import { eventually } from '../support/eventually.js';
import { expectAccessibleAtEach, type Viewport } from './support/axe.js';
import { openChart } from './support/chart.js';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

/*
 * A newcomer's first look at `npm start`'s week of clinic life, on a server of its own with
 * TIDEWELL_DEMO_WEEK=1 (see playwright.config.ts): the dashboard has today's visits, unread texts
 * and drafts; a chart has history; a text is answered; the voicemail plays; a lab trend opens.
 * Each screen is held to axe at 1280 and 390 px. Nothing here waits on the scribe's recognition,
 * which the runtime finishes after it reports ready.
 */
const WHITAKER = 'pat-0002';
const DEMO_URL = process.env.TIDEWELL_E2E_DEMO_URL ?? 'http://localhost:4210';
const shot = (name: string) => (viewport: Viewport) => `test-results/screenshots/newcomer-${name}-${viewport.width}.png`;

/** 14:00 as the dashboard shows it: 2:00 PM. */
function clock(hhmm: string): string {
  const [hour, minute] = hhmm.split(':').map(Number);
  return `${hour % 12 || 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

async function todayInPractice(page: Page): Promise<string> {
  const { json } = await apiAs(page, 'GET', '/v1/practices/settings/calendar');
  const p = zonedParts(new Date(), String(json.timeZone));
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

test.beforeAll(async () => {
  // The demo server seeds while the other server starts (and the other files run); its
  // /local/ready answers 200 once the week is in. On a busy two-core machine that is about 90 s.
  test.setTimeout(300_000);
  await eventually(
    `the demo server at ${DEMO_URL} to finish seeding its week (GET /local/ready)`,
    async () => (await fetch(`${DEMO_URL}/local/ready`)).status,
    (status) => status === 200,
    { within: 280_000, every: 1_000 },
  );
});

test('a newcomer walks the seeded week: the dashboard, a chart with history, a reply, the voicemail, a lab trend', async ({ page }) => {
  // About a minute on a quiet machine; axe at two widths on five screens takes three times that on a busy one.
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, PROVIDER, '/home');

  // The dashboard: Dr. Okafor's visits today (none at a weekend), unread texts and drafts.
  const times = providerVisitTimesOn(await todayInPractice(page));
  const day = page.getByRole('region', { name: "Provider's Day" });
  if (times.length === 0) await expect(day).toContainText('No appointments for you today.');
  else {
    const visits = day.getByRole('list', { name: 'Your appointments today' }).getByRole('listitem');
    await expect(visits).toHaveCount(times.length);
    for (const [i, time] of times.entries()) await expect(visits.nth(i)).toContainText(clock(time));
  }
  await expect(page.getByRole('region', { name: 'Unread Messages' })).toContainText(/Messages[1-9]\d*\s*unread/);
  await expect(page.getByRole('region', { name: 'My Drafts' }).getByRole('listitem').first()).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Results to Review' })
      .getByRole('link', { name: /^Michael Chen, / })
      .first(),
  ).toBeVisible();
  await expectAccessibleAtEach(page, 'seeded dashboard', { screenshot: shot('dashboard'), fullPage: true });

  // A chart with history: James Whitaker's problems, medicines and last week's signed visit note.
  await openChart(page, WHITAKER);
  await expect(page.getByText('Essential hypertension').first()).toBeVisible();
  await expect(page.getByText('Lisinopril 20 mg tablet').first()).toBeVisible();
  await expect(page.getByText(/blood pressure follow-up/).first()).toBeVisible();
  await expectAccessibleAtEach(page, "James Whitaker's chart", { screenshot: shot('chart') });

  // Communication: an unread question from a patient is answered from the keyboard (on a fresh
  // week the newest is Chloe Dubois's about her inhaler; a second walk answers the next one).
  await page.goto('/#/messages');
  const question = page
    .getByTestId('conversation')
    .filter({ has: page.getByText(/\?$/) })
    .first();
  const asked = (await question.getByText(/\?$/).textContent())!.trim();
  await question.getByRole('link').first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sms-message').filter({ hasText: asked }).last()).toHaveAttribute('data-direction', 'inbound');
  const reply = `Thanks for asking, we will call you this afternoon. (${Date.now().toString(36)})`;
  const composer = page.getByPlaceholder('Type message...');
  await composer.fill(reply);
  await composer.press('Enter');
  await expect(page.getByTestId('sms-message').filter({ hasText: reply })).toHaveAttribute('data-direction', 'outbound');
  await expect(composer).toHaveValue('');
  await expectAccessibleAtEach(page, 'conversation after a reply', { screenshot: shot('conversation') });

  // Calls: the voicemail plays in the browser.
  await page.goto('/#/messages/calls');
  const play = page.getByRole('button', { name: /^Play voicemail from / }).first();
  await play.focus();
  await page.keyboard.press('Enter');
  const audio = page.locator('audio').first();
  await expect
    .poll(async () => audio.evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : 0)), {
      message: "the voicemail's length",
      timeout: 15_000,
    })
    .toBeGreaterThan(1);
  await audio.evaluate(async (a: HTMLAudioElement) => {
    a.muted = true;
    await a.play();
  });
  await expect
    .poll(async () => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { message: 'the voicemail playing', timeout: 15_000 })
    .toBeGreaterThan(0);
  // Heard enough: paused, as a person would before reading on (a playing clip also holds up screenshots).
  await audio.evaluate((a: HTMLAudioElement) => a.pause());
  await expectAccessibleAtEach(page, 'calls with a voicemail', { screenshot: shot('calls') });

  // Labs: Michael Chen's latest A1c waits for review; its trend shows the three draws, oldest first.
  await page.goto('/#/home');
  await page
    .getByRole('region', { name: 'Results to Review' })
    .getByRole('link', { name: /^Michael Chen, / })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Result for Michael Chen' })).toBeVisible();
  await page
    .getByRole('button', { name: /^Trend of Hemoglobin A1c/ })
    .first()
    .focus();
  await page.keyboard.press('Enter');
  const trend = page.getByRole('dialog', { name: /over time$/ });
  const rows = trend.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('7.2');
  await expect(rows.nth(2)).toContainText('8.1');
  await expectAccessibleAtEach(page, 'A1c trend', { screenshot: shot('a1c-trend') });
  await page.keyboard.press('Escape');
  await expect(trend).toHaveCount(0);
});
