import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { expectAccessible } from './support/axe.js';
import { drawer, openChart, section } from './support/chart.js';
import { apiAs, PROVIDER, signIn, test, type Sessions } from './support/sign-in.js';

const ADMIN = 'admin@demo.tidewell.local';
/** Only for these tests: notes are added to this patient on every run. */
const PATIENT = 'pat-0017';
const SHOTS = 'test-results/screenshots/idle-lock';

const lockDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Screen locked' });

/** Runs `body` with the practice's screen lock at one minute, and puts the default back however it ends. */
async function withOneMinuteLock(sessions: Sessions, body: () => Promise<void>): Promise<void> {
  const admin = await sessions.open(ADMIN, '/home');
  expect((await apiAs(admin, 'PUT', '/v1/practices/metadata', { idleLockMinutes: 1 })).status).toBe(200);
  try {
    await body();
  } finally {
    await apiAs(admin, 'PUT', '/v1/practices/metadata', { idleLockMinutes: null });
  }
}

/**
 * The provider, on a clock the test moves by hand (instead of waiting a real minute), opens the
 * patient's chart and types unsaved text into a new note.
 */
async function typeInNewNote(page: Page, text: string) {
  await page.clock.install();
  await signIn(page, PROVIDER, '/home');
  await openChart(page, PATIENT);
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Note', exact: true }).click();
  const editor = page.getByRole('dialog', { name: /^Note · / }).getByRole('textbox', { name: 'Note text' });
  await expect(editor).toBeFocused();
  const noteId = await page.locator('.tw-note-window').last().getAttribute('data-note-id');
  await page.keyboard.type(text);
  return { editor, noteId };
}

/** A chart form with typed, unsaved text, which stays open under the lock as well. */
async function typeInAllergyForm(page: Page) {
  await section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }).click();
  const form = drawer(page, 'Add Allergy');
  await form.getByRole('textbox', { name: 'Name' }).fill('Typed before the lock');
  return form;
}

test('an admin sets the idle time within its bounds; others only read it', async ({ sessions }) => {
  const admin = await sessions.open(ADMIN, '/new-settings/practice-metadata');
  const field = admin.getByRole('textbox', { name: 'Lock the screen after (minutes)' });
  try {
    await expect(field).toHaveValue('15');
    for (const bad of ['0', '61', 'ten']) {
      await field.fill(bad);
      await admin.getByRole('button', { name: 'Set screen lock' }).click();
      await expect(admin.getByText('Screen lock time must be a whole number of minutes from 1 to 60')).toBeVisible();
    }
    expect((await apiAs(admin, 'GET', '/v1/practices/metadata')).json.idleLockMinutes).toBe(15);
    await field.fill('20');
    await admin.getByRole('button', { name: 'Set screen lock' }).click();
    await expect(admin.getByText('Screen lock saved')).toBeVisible();
    expect((await apiAs(admin, 'GET', '/v1/practices/metadata')).json.idleLockMinutes).toBe(20);

    const provider = await sessions.open(PROVIDER, '/new-settings/practice-metadata');
    await expect(provider.getByRole('textbox', { name: 'Lock the screen after (minutes)' })).toHaveCount(0);
    await expect(provider.getByText('20 minutes')).toBeVisible();
    // Roles are checked on the server too.
    expect((await apiAs(provider, 'PUT', '/v1/practices/metadata', { idleLockMinutes: 5 })).status).toBe(403);
  } finally {
    await apiAs(admin, 'PUT', '/v1/practices/metadata', { idleLockMinutes: null });
  }
});

test('the idle screen locks without showing the note, and the same user unlocks it by keyboard with the text intact', async ({ page, sessions }) => {
  test.setTimeout(180_000);
  await withOneMinuteLock(sessions, async () => {
    const text = `Unsaved under the lock ${Date.now() % 100000}`;
    const { editor } = await typeInNewNote(page, text);
    const form = await typeInAllergyForm(page);

    await page.clock.fastForward('01:05');
    const lock = lockDialog(page);
    await expect(lock).toBeVisible();
    await expect(lock).toContainText('Locked after 1 minute of inactivity.');
    await expect(lock).toContainText(PROVIDER);
    // Nothing of the patient shows, and nothing under the lock is reachable.
    await expect(editor).toBeHidden();
    await expect(page.getByText(text)).toBeHidden();
    await expect(form).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeHidden();
    expect(await page.locator('#root').getAttribute('inert')).not.toBeNull();

    await page.screenshot({ path: `${SHOTS}/01-locked.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectAccessible(page, 'screen lock (1280 px)');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'screen lock (390 px)');
    await page.screenshot({ path: `${SHOTS}/02-locked-phone.png` });
    await page.setViewportSize({ width: 1360, height: 860 });

    // A reload does not get around the lock.
    await page.reload();
    await expect(lockDialog(page)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeHidden();
    await expect(lockDialog(page).getByLabel('Password')).toBeFocused();

    // A wrong password keeps it locked, in Cognito's words.
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    await expect(lockDialog(page).getByRole('alert')).toContainText('Incorrect username or password.');
    await expect(lockDialog(page)).toBeVisible();
  });
});

test('unlocking returns to the open note with its unsaved text, by keyboard alone', async ({ page, sessions }) => {
  test.setTimeout(180_000);
  await withOneMinuteLock(sessions, async () => {
    const text = `Kept through the lock ${Date.now() % 100000}`;
    const { editor } = await typeInNewNote(page, text);
    const form = await typeInAllergyForm(page);

    await page.clock.fastForward('01:05');
    const lock = lockDialog(page);
    await expect(lock).toBeVisible();
    await expect(editor).toBeHidden();

    const password = lock.getByLabel('Password');
    await expect(password).toBeFocused();
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expect(lock).toHaveCount(0);

    // The same screen, the same windows, the same text: nothing was mounted again.
    await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible();
    await expect(editor).toBeVisible();
    await expect(editor).toHaveText(text);
    await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Typed before the lock');
    // Nothing stays hidden or inert: the open drawer takes typing again.
    await expect(page.locator('html')).not.toHaveClass(/tw-screen-locked/);
    await form.getByRole('textbox', { name: 'Name' }).press('End');
    await page.keyboard.type(', unlocked');
    await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Typed before the lock, unlocked');
    await page.screenshot({ path: `${SHOTS}/03-unlocked.png` });
  });
});

test('another user at the locked screen gets a fresh session; the first user’s note is saved as a draft and not shown', async ({ page, sessions }) => {
  test.setTimeout(180_000);
  await withOneMinuteLock(sessions, async () => {
    const text = `Left by the first user ${Date.now() % 100000}`;
    const { noteId } = await typeInNewNote(page, text);

    await page.clock.fastForward('01:05');
    await lockDialog(page).getByRole('button', { name: 'Sign in as someone else' }).click();
    await expect(page.getByLabel('Email')).toBeVisible();
    // Nothing typed stays in the tab for the next user.
    const kept = await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('tw-form-draft:')));
    expect(kept).toEqual([]);

    // The first user finds their note saved as a draft (signing out ended their other sessions, so a new one).
    const firstUser = await sessions.open(PROVIDER, '/home');
    const saved = await apiAs(firstUser, 'GET', `/v1/notes/${noteId}`);
    expect(saved.status).toBe(200);
    expect(saved.json.status).toBe('DRAFT');
    expect(JSON.stringify(saved.json)).toContain(text);

    await page.getByLabel('Email').fill(ADMIN);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // As long as signIn() allows a busy machine; the admin must then stay signed in.
    await expect(page.getByTestId('practice-name')).toBeVisible({ timeout: 45_000 });
    await expect(page.getByRole('dialog', { name: /^Note · / })).toHaveCount(0);
    await expect(page.getByText(text)).toHaveCount(0);
    await expect(lockDialog(page)).toHaveCount(0);
    expect((await apiAs(page, 'GET', '/v1/practices/users/me')).json.emailAddress).toBe(ADMIN);
  });
});
