import { expect, type Locator, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import config from './playwright.config.js';
import { apiSessionOf, callApi, type ApiSession } from './support/api-as.js';
import { openChart } from './support/chart.js';
import { AI_MESSAGES } from '../../shared/ai/transcription-schema.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { expectAccessible } from './support/axe.js';
import { PROVIDER, signIn, test } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots';
const ADMIN = 'admin@demo.tidewell.local';
const FLAG = 'tidewell_copilot';

/** Spoken by flite's slt voice: what the microphone hears, and the file uploaded instead. */
const VISIT =
  'The patient reports a headache for three days. No fever. Blood pressure is one hundred thirty over eighty. ' +
  'This is likely a tension headache. She is allergic to penicillin. Start ibuprofen four hundred milligrams. Follow up in two weeks.';
const AUDIO_DIR = join(tmpdir(), 'tidewell-scribe-e2e');
mkdirSync(AUDIO_DIR, { recursive: true });
const VISIT_WAV = join(AUDIO_DIR, 'visit.wav');
// Runs when the file loads (runner and worker alike), before the browser starts with it as its microphone.
execFileSync('flite', ['-voice', 'slt', '-t', VISIT, '-o', VISIT_WAV]);
const NOT_AUDIO = join(AUDIO_DIR, 'visit-notes.txt');
writeFileSync(NOT_AUDIO, 'not audio');

const baseArgs = config.use?.launchOptions?.args ?? [];
test.use({
  launchOptions: {
    executablePath: config.use?.launchOptions?.executablePath,
    args: [...baseArgs, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${VISIT_WAV}`],
  },
  permissions: ['microphone'],
});

let restore: { session: ApiSession; previous: boolean } | undefined;
test.beforeEach(async ({ sessions, request }) => {
  const adminPage = await sessions.open(ADMIN);
  const admin = await apiSessionOf(adminPage);
  const before = await callApi(request, admin, 'GET', '/v1/practices/feature-gates');
  const previous = (before.json as { flags: Record<string, boolean> }).flags[FLAG] === true;
  // A fresh server on a busy machine may drop the first connection of a new client; the flag is only setup.
  const turnOn = () => callApi(request, admin, 'PUT', '/v1/practices/feature-gates', { flags: { [FLAG]: true } });
  const on = await turnOn().catch(turnOn);
  expect(on.status).toBe(200);
  restore = { session: admin, previous };
});
test.afterEach(async ({ request }) => {
  if (!restore) return;
  const { session, previous } = restore;
  restore = undefined;
  await callApi(request, session, 'PUT', '/v1/practices/feature-gates', { flags: { [FLAG]: previous } });
});

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/scribe-${name}.png` });
}

async function newNote(page: Page, patientId: string): Promise<Locator> {
  await signIn(page, PROVIDER, `/patients/${patientId}`);
  await openChart(page, patientId);
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Note', exact: true }).click();
  const noteId = await page.locator('.tw-note-window').last().getAttribute('data-note-id');
  return page.locator(`.tw-note-window[data-note-id="${noteId}"]`);
}

/** Follows the progress panel's words until the note is written; returns the statuses it showed. */
async function watchRun(win: Locator): Promise<string[]> {
  const progress = win.getByRole('region', { name: 'Creating the note' });
  const editor = win.getByRole('textbox', { name: 'Note text' });
  const seen: string[] = [];
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    const text = await progress
      .getByRole('status')
      .textContent({ timeout: 500 })
      .catch(() => null);
    if (text && seen.at(-1) !== text) seen.push(text);
    if ((await editor.textContent())?.includes('Subjective')) return seen;
    await expect(win.getByRole('alert').filter({ hasText: 'AI Note Creation Unsuccessful' })).toHaveCount(0);
    await win.page().waitForTimeout(250);
  }
  throw new Error(`The note was not written; statuses seen: ${seen.join(', ')}`);
}

test('a recorded visit becomes a SOAP note with evidence for each sentence and chart updates to accept', async ({ page }) => {
  test.setTimeout(420_000);
  const win = await newNote(page, 'pat-0034');
  await win.getByRole('button', { name: 'AI Copilot' }).click();
  const panel = win.getByRole('region', { name: 'Recording' });
  await panel.getByRole('button', { name: 'Start recording' }).click();
  await expect(panel.getByRole('status')).toHaveText('Recording');
  await expect(page.getByRole('status').filter({ hasText: 'Recording in progress' })).toBeVisible();
  await expect(panel.getByLabel(/^Recorded 00:0[2-9]$/)).toBeVisible({ timeout: 10_000 });
  await shot(page, '01-recording');

  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect(panel.getByRole('status')).toHaveText('Paused');
  const pausedAt = await panel.getByLabel(/^Recorded /).textContent();
  // eslint-disable-next-line tidewell/no-fixed-sleep -- the clock is the subject: a paused timer that still ran would have shown the next whole second by now
  await page.waitForTimeout(2_000);
  await expect(panel.getByLabel(/^Recorded /)).toHaveText(pausedAt ?? '');
  await panel.getByRole('button', { name: 'Resume' }).click();
  await expect(panel.getByRole('status')).toHaveText('Recording');
  // Past one 10 s slice, so the recording goes up as two chunks joined on the server.
  await expect(panel.getByLabel(/^Recorded 00:1[2-9]$/)).toBeVisible({ timeout: 20_000 });
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByRole('status')).toHaveText('Recording stopped', { timeout: 30_000 });
  await expect(page.getByText('Recording in progress')).toHaveCount(0);

  await panel.getByRole('button', { name: 'Next' }).click();
  const templates = win.getByRole('region', { name: 'Choose templates' });
  await expect(templates.getByRole('radio', { name: 'SOAP Note' })).toBeChecked();
  await templates.getByRole('radio', { name: 'After Visit Summary' }).check();
  await shot(page, '02-templates');
  await templates.getByRole('button', { name: 'Generate' }).click();
  await expect(win.getByRole('region', { name: 'Creating the note' })).toBeVisible();
  await shot(page, '03-progress');
  const statuses = await watchRun(win);
  expect(statuses.length).toBeGreaterThan(0);

  const editor = win.getByRole('textbox', { name: 'Note text' });
  for (const heading of ['Subjective', 'Objective', 'Assessment', 'Plan']) await expect(editor).toContainText(heading);
  await expect(editor).toContainText(/headache/i);

  const evidence = win.getByRole('region', { name: 'Evidence from the visit' });
  await expect(evidence).toContainText('Local');
  const sentence = evidence.getByRole('button', { name: /headache/i }).first();
  await sentence.click();
  await expect(sentence).toHaveAttribute('aria-expanded', 'true');
  const lines = evidence.getByRole('region', { name: 'Transcript lines' });
  await expect(lines).toContainText(/Speaker 1 · \d+:\d\d–\d+:\d\d/);
  await expect(lines.getByRole('button', { name: /^Play / })).toBeVisible();
  await shot(page, '04-evidence');

  // Chart updates: only what was asserted ("No fever" proposes nothing), each with the statement it
  // was heard in, Accept and Reject alike so that neither is pre-selected.
  const updates = evidence.locator('.tw-scribe-proposal');
  await expect(updates.first()).toBeVisible();
  await expect(evidence.getByRole('button', { name: /^Accept: .*fever/i })).toHaveCount(0);
  const count = await updates.count();
  for (let i = 0; i < count; i++) {
    const update = updates.nth(i);
    await expect(update).toContainText(/Heard: “.+”/);
    const acceptButton = update.getByRole('button', { name: /^Accept: / });
    const rejectButton = update.getByRole('button', { name: /^Reject: / });
    expect(await acceptButton.getAttribute('class')).toBe(await rejectButton.getAttribute('class'));
    await expect(acceptButton).not.toBeFocused();
  }
  await expectAccessible(page, 'scribe evidence and chart updates, desktop');

  const accept = evidence.getByRole('button', { name: /^Accept: Start Ibuprofen/ });
  await accept.click();
  await expect(evidence.getByText('Added to the chart')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Medications', exact: true })).toContainText(/ibuprofen/i);
  await shot(page, '05-accepted');

  // A diagnosis shows its ICD-10 code and name, and is written only when confirmed.
  await evidence.getByRole('button', { name: /^Accept: Headache, unspecified \(R51\.9\)/ }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Add this diagnosis to the chart?' });
  await expect(confirm).toContainText('ICD-10 code');
  await expect(confirm).toContainText('R51.9');
  await expect(confirm).toContainText('Headache, unspecified');
  await expect(confirm).toContainText(/Heard.*headache/i);
  await expectAccessible(page, 'scribe diagnosis confirmation, desktop');
  await shot(page, '05b-confirm-diagnosis');
  await confirm.getByRole('button', { name: 'Add to the chart' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(evidence.locator('.tw-scribe-proposal').filter({ hasText: 'R51.9' })).toContainText('Added to the chart');
  await expect(page.getByRole('region', { name: 'Medical Conditions', exact: true })).toContainText(/headache/i);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(evidence.locator('.tw-scribe-proposal').first()).toBeVisible();
  // The whole page, moments after the confirmation's pending button left with its dialog.
  await expectAccessible(page, 'scribe chart updates and the chart behind them, 390 px');
  await shot(page, '05c-phone');
});

test('by keyboard alone: an uploaded audio file instead of a recording, one audio file only, then the note', async ({ page }) => {
  test.setTimeout(360_000);
  const win = await newNote(page, 'pat-0035');
  await win.getByRole('button', { name: 'AI Copilot' }).focus();
  await page.keyboard.press('Enter');
  await expect(win.getByRole('button', { name: 'Start recording' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(win.getByRole('button', { name: 'Upload audio instead' })).toBeFocused();
  await page.keyboard.press('Enter');

  const upload = win.getByRole('region', { name: 'Upload audio' });
  const input = upload.getByLabel(/^Audio file/);
  await expect(input).toBeFocused();
  let chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles(NOT_AUDIO);
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(upload.getByRole('alert')).toBeVisible();
  await expect(upload.getByRole('button', { name: 'Next' })).toBeDisabled();
  await shot(page, '06-upload-invalid');

  chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles(VISIT_WAV);
  await expect(input).not.toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Tab');
  await expect(upload.getByRole('button', { name: 'Next' })).toBeFocused();
  await page.keyboard.press('Enter');

  const templates = win.getByRole('region', { name: 'Choose templates' });
  await expect(templates.getByRole('radio', { name: 'SOAP Note' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(templates.getByRole('radio', { name: 'None' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(templates.getByRole('radio', { name: 'After Visit Summary' })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(templates.getByRole('button', { name: 'Generate' })).toBeFocused();
  await page.keyboard.press('Enter');
  await watchRun(win);
  await expect(win.getByRole('textbox', { name: 'Note text' })).toContainText('Plan');
  await expect(win.getByRole('textbox', { name: 'Note text' })).toContainText(/after.visit summary/i);
});

test('a session that ends mid-recording asks for a new sign-in in a modal, and the recording goes on and is saved whole', async ({ page }) => {
  test.setTimeout(240_000);
  const win = await newNote(page, 'pat-0035');
  await win.getByRole('button', { name: 'AI Copilot' }).click();
  const panel = win.getByRole('region', { name: 'Recording' });
  await panel.getByRole('button', { name: 'Start recording' }).click();
  await expect(panel.getByRole('status')).toHaveText('Recording');

  // The tokens are gone (cleared storage, a sign-out elsewhere): the next keep-alive or chunk upload notices.
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith('CognitoIdentityServiceProvider.')) localStorage.removeItem(key);
  });
  const modal = page.getByRole('alertdialog', { name: 'Your session has expired' });
  await expect(modal).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('status')).toHaveText('Recording');
  await expect(modal.getByLabel('Email')).toHaveValue(PROVIDER);
  await expectAccessible(page, 'session-expiry modal');
  await shot(page, '06-session-expired');

  await modal.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
  await modal.getByRole('textbox', { name: 'Password', exact: true }).press('Enter');
  await expect(modal.getByRole('alert')).toHaveText('Incorrect username or password.');
  // The pool locks a login for 1 s after a wrong password.
  // eslint-disable-next-line tidewell/no-fixed-sleep -- the clock is the subject: that lock must pass
  await page.waitForTimeout(1_500);
  await modal.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
  await modal.getByRole('button', { name: 'Sign in' }).click();
  await expect(modal).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('practice-name')).toBeVisible();

  // Recording never stopped; its chunks, held while signed out, go up now.
  await expect(panel.getByLabel(/^Recorded 00:(1[5-9]|[2-5]\d)$/)).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByRole('status')).toHaveText('Recording stopped', { timeout: 60_000 });
  await expect(panel.getByText(AI_MESSAGES.savingRecordingFailed)).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Next' })).toBeEnabled();
  await shot(page, '07-after-new-sign-in');
});
