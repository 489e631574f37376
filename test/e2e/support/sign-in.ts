import { expect, test as base, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../../infra/local/seed/demo-users.js';
import { apiSessionOf, callApi } from './api-as.js';

export const PROVIDER = 'provider@demo.tidewell.local';
export const EMPLOYEE = 'employee@demo.tidewell.local';

const ATTEMPTS = 6;

/**
 * Opens `/#path` signed in as `email`. A fresh server on a busy machine may still be writing the
 * web bundle or loading a handler, so a screen that shows neither the sign-in form nor the shell
 * is loaded again; a sign-in is never interrupted by a reload while it is still under way.
 */
export async function signIn(page: Page, email: string, path = '/home'): Promise<void> {
  const emailField = page.getByLabel('Email');
  const shell = page.getByTestId('practice-name');
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (attempt === 0) await page.goto(`/#${path}`);
    else await page.reload();
    const screen = await emailField
      .or(shell)
      .first()
      .waitFor({ timeout: 15_000 })
      .then(
        () => true,
        () => false,
      );
    if (!screen) continue;
    if (await shell.isVisible()) return;
    await emailField.fill(email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    if (
      await shell.waitFor({ timeout: 45_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  await expect(shell).toBeVisible();
}

/** Browsers of several users at once, each in its own context, closed together when a test ends. */
export class Sessions {
  private readonly contexts: BrowserContext[] = [];

  constructor(private readonly browser: Browser) {}

  /**
   * `clockAt` starts the browser's clock at that instant (it runs on from there), before signing in.
   * `beforeSignIn` prepares the new page first (a route that fails a download), so nothing the app
   * fetches while it starts escapes it.
   */
  async open(
    email: string,
    path = '/home',
    { clockAt, beforeSignIn }: { clockAt?: Date; beforeSignIn?: (page: Page) => Promise<unknown> } = {},
  ): Promise<Page> {
    const context = await this.browser.newContext();
    this.contexts.push(context);
    const page = await context.newPage();
    if (clockAt) await page.clock.install({ time: clockAt });
    if (beforeSignIn) await beforeSignIn(page);
    await signIn(page, email, path);
    return page;
  }

  async closeAll(): Promise<void> {
    for (const context of this.contexts.splice(0)) await context.close();
  }
}

/** Calls the API as the signed-in user of this page, with the ID token the app itself uses. */
export async function apiAs(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const { status, json } = await callApi(page.request, await apiSessionOf(page), method, path, body);
  return { status, json: json as Record<string, unknown> };
}

/** Playwright's `test` with a `sessions` fixture whose browsers are closed when each test ends. */
export const test = base.extend<{ sessions: Sessions }>({
  sessions: async ({ browser }, use) => {
    const sessions = new Sessions(browser);
    await use(sessions);
    await sessions.closeAll();
  },
});
