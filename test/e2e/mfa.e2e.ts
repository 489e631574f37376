import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateSync } from 'otplib';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { eventually } from '../support/eventually.js';
import { totpCode } from '../support/totp.js';
import { expectAccessible } from './support/axe.js';

/**
 * A practice whose file says "mfa": "required": every user sets up an authenticator app at sign-in
 * (Cognito's MFA_SETUP challenge) and cannot skip it. The suite's shared server runs the demo
 * practice's own rule, so this file starts its own servers: TIDEWELL_LOCAL_MFA=required, and
 * beside it (started at the same time, so it adds no start-up) the default "admins" rule, where an
 * admin without TOTP meets the app's set-up screen after the password and a provider is not asked.
 */
const ADMIN = 'admin@demo.tidewell.local';
const PORT = Number(process.env.E2E_PORT ?? 3210) + 50;
/** Each server also takes the next port, for its local partner origin. */
const ADMINS_PORT = PORT + 2;
const URL = `http://localhost:${PORT}`;
const ADMINS_URL = `http://localhost:${ADMINS_PORT}`;
const servers: { process: ChildProcess; dataDir: string; url: string }[] = [];

function startServer(port: number, mfa: 'required' | 'admins') {
  const dataDir = mkdtempSync(join(tmpdir(), `tidewell-e2e-mfa-${mfa}-`));
  const child = spawn('npx', ['tsx', 'infra/local/start.ts', '--empty'], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, PORT: String(port), TIDEWELL_DATA_DIR: dataDir, TIDEWELL_LOCAL_MFA: mfa },
    stdio: 'ignore',
    detached: true,
  });
  const url = `http://localhost:${port}`;
  servers.push({ process: child, dataDir, url });
  return eventually(`the "${mfa}" MFA server to listen`, () => fetch(`${url}/config.json`).then((r) => r.ok), Boolean, { within: 240_000, every: 500 });
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await Promise.all([startServer(PORT, 'required'), startServer(ADMINS_PORT, 'admins')]);
});

test.afterAll(async () => {
  for (const server of servers) {
    if (server.process.pid) process.kill(-server.process.pid, 'SIGTERM');
    await eventually(
      'the MFA server to stop',
      () =>
        fetch(`${server.url}/config.json`).then(
          () => false,
          () => true,
        ),
      Boolean,
      { within: 20_000, every: 200 },
    );
    rmSync(server.dataDir, { recursive: true, force: true });
  }
});

async function submitPassword(page: Page, email = ADMIN) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('sign-in demands an authenticator app, with no way past it, then asks for its code; a reset asks for a new one', async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto(`${URL}/#/home`);
  await submitPassword(page);

  const heading = page.getByRole('heading', { name: 'Set up two-step sign-in' });
  await expect(heading).toBeVisible({ timeout: 45_000 });
  const secret = (await page.getByTestId('mfa-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(page.getByRole('link', { name: /^otpauth:\/\/totp\/Tidewell:.*secret=/ })).toBeVisible();
  // No skip: the only other way is back to the password, and that lets nobody in.
  await expect(page.getByRole('button')).toHaveText(['Back to sign in', 'Turn on two-step sign-in']);
  await expectAccessible(page, 'MFA set-up at sign-in 1280');
  await page.setViewportSize({ width: 390, height: 800 });
  await expectAccessible(page, 'MFA set-up at sign-in 390');
  await page.setViewportSize({ width: 1280, height: 860 });

  // A wrong code keeps the step with a message saying so.
  const codeField = page.getByLabel('6-digit code');
  await expect(codeField).toBeFocused();
  const right = generateSync({ secret });
  await codeField.fill(right === '000000' ? '111111' : '000000');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('That code did not match. Enter the 6-digit code your authenticator app shows now.');
  await expect(heading).toBeVisible();

  // Keyboard only: the code, then Tab past "Back to sign in" to the submit button.
  await codeField.fill(generateSync({ secret }));
  await codeField.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Turn on two-step sign-in' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('practice-name')).toBeVisible({ timeout: 45_000 });
  const usedCode = generateSync({ secret });

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });

  await submitPassword(page);
  const challenge = page.getByLabel(/code/i).first();
  await expect(challenge).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, 'TOTP sign-in step');
  // Each code is taken once and the next 30 s step's is accepted: that one was not used at set-up.
  const code = totpCode(secret, Date.now() + 30_000);
  expect(code).not.toBe(usedCode);
  await challenge.fill(code);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('practice-name')).toBeVisible({ timeout: 45_000 });

  // A lost phone: the admin resets the authenticator app from the team page. Under "required" the
  // API then refuses this session (it has no authenticator app any more), so the set-up screen
  // comes at once, without signing out, and the next sign-in would ask for it the same way.
  await page.goto(`${URL}/#/new-settings/team`);
  await page.getByRole('table', { name: 'Team' }).getByRole('link', { name: 'Alicia Moreno' }).click();
  await page.getByRole('button', { name: 'Reset two-step sign-in' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Reset two-step sign-in?' });
  await expect(dialog).toContainText("Alicia Moreno's authenticator app stops working for Tidewell.");
  await dialog.getByRole('button', { name: 'Reset' }).press('Enter');
  await expect(page.getByText('Two-step sign-in reset')).toBeVisible();
  await page.goto(`${URL}/#/home`);
  await expect(heading).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText('This practice requires two-step sign-in. Add Tidewell')).toBeVisible();
  await expect(page.getByTestId('practice-name')).toHaveCount(0);
  await expect(page.getByTestId('mfa-secret')).not.toHaveText(secret);
});

test('"admins": an admin without an authenticator app gets only the set-up screen; a provider is not asked', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await page.goto(`${ADMINS_URL}/#/home`);
  await submitPassword(page);
  const heading = page.getByRole('heading', { name: 'Set up two-step sign-in' });
  await expect(heading).toBeVisible({ timeout: 45_000 });
  const secret = (await page.getByTestId('mfa-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(page.getByTestId('practice-name')).toHaveCount(0);
  await expectAccessible(page, 'MFA set-up screen (admins) 1280');
  await page.setViewportSize({ width: 390, height: 800 });
  await expectAccessible(page, 'MFA set-up screen (admins) 390');
  await page.setViewportSize({ width: 1280, height: 860 });
  // The code field has focus, and the only other way is to sign out (turning it on is walked above).
  await expect(page.getByLabel('6-digit code')).toBeFocused();
  await expect(page.getByRole('button')).toHaveText(['Sign out', 'Turn on two-step sign-in']);

  const context = await browser.newContext();
  const provider = await context.newPage();
  try {
    await provider.goto(`${ADMINS_URL}/#/home`);
    await submitPassword(provider, 'provider@demo.tidewell.local');
    await expect(provider.getByTestId('practice-name')).toBeVisible({ timeout: 45_000 });
    await expect(provider.getByRole('heading', { name: 'Set up two-step sign-in' })).toHaveCount(0);
    await expect(provider.getByLabel(/code/i)).toHaveCount(0);
  } finally {
    await context.close();
  }
});
