import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { PROVIDER, signIn } from './support/sign-in.js';

/** What the browser downloads before each first screen, at most 200 KB gzip. */
const FIRST_SCREEN_BUDGET_GZIP = 200_000;
const SHOTS = 'test-results/screenshots/first-screens';
const DIST = join(import.meta.dirname, '../../web/dist');

/** Marks in the built code that tell which library a served file carries. */
const AUTHENTICATOR = 'data-amplify-authenticator';
const EDITOR = 'ProseMirror-focused';

interface Download {
  path: string;
  gzip: number;
  transferred: number;
  code: string;
}

interface FirstScreen {
  downloads: Download[];
  violations: string[];
}

/**
 * Records, in the page, when the first screen's marker element appears and every CSP violation,
 * so the downloads counted are those the browser started before the user could see the screen.
 */
async function watchFirstScreen(page: Page, selector: string): Promise<void> {
  await page.addInitScript((sel) => {
    const w = window as unknown as { __firstScreenAt?: number; __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      w.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`);
    });
    const check = () => {
      if (w.__firstScreenAt === undefined && document.querySelector(sel)) w.__firstScreenAt = performance.now();
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
  }, selector);
}

async function firstScreenOf(page: Page): Promise<FirstScreen> {
  await page.waitForFunction(() => (window as unknown as { __firstScreenAt?: number }).__firstScreenAt !== undefined);
  const { entries, violations } = await page.evaluate(() => {
    const w = window as unknown as { __firstScreenAt: number; __cspViolations: string[] };
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return {
      violations: w.__cspViolations,
      entries: resources
        .filter((r) => r.startTime <= w.__firstScreenAt && /\.(js|css)$/.test(new URL(r.name).pathname))
        .map((r) => ({ path: new URL(r.name).pathname, transferred: r.transferSize })),
    };
  });
  // The budget is the gzip size of each file as built, whatever encoding this server chose.
  const downloads = entries.map(({ path, transferred }) => {
    const code = readFileSync(join(DIST, path));
    return { path, transferred, gzip: gzipSync(code).length, code: code.toString('utf8') };
  });
  return { downloads, violations };
}

/** Prints what a first screen downloaded; returns its total and the listing, for a failure to name the files. */
function report(name: string, screen: FirstScreen): { total: number; listing: string } {
  const total = screen.downloads.reduce((sum, d) => sum + d.gzip, 0);
  const transferred = screen.downloads.reduce((sum, d) => sum + d.transferred, 0);
  const lines = screen.downloads.map(
    (d) => `  ${(d.gzip / 1000).toFixed(1).padStart(7)} kB gzip  ${(d.transferred / 1000).toFixed(1).padStart(7)} kB sent  ${d.path}`,
  );
  const listing = `${name}: ${screen.downloads.length} files, ${(total / 1000).toFixed(1)} kB gzip (budget ${FIRST_SCREEN_BUDGET_GZIP / 1000} kB), ${(transferred / 1000).toFixed(1)} kB transferred\n${lines.join('\n')}`;
  console.log(listing);
  return { total, listing };
}

/**
 * Holds back the signed-in app's own code until the page has asked for every file named (by the
 * start of its name), or for 3 s; gives the names asked for meanwhile. What the page asks for only
 * once the app's code has run cannot be among them.
 */
async function askedWhileTheAppDownloads(page: Page, prefixes: string[]): Promise<() => string[]> {
  const asked = new Set<string>();
  let whileHeld: string[] = [];
  let allAsked: () => void = () => undefined;
  const everyOne = new Promise<void>((resolve) => (allAsked = resolve));
  page.on('request', (request) => {
    const file = new URL(request.url()).pathname.split('/').pop() ?? '';
    const prefix = prefixes.find((p) => file.startsWith(p) && file.endsWith('.js'));
    if (prefix) asked.add(prefix);
    if (asked.size === prefixes.length) allAsked();
  });
  await page.route(/\/assets\/authenticated-app-[^/]+\.js$/, async (route) => {
    // A bound, not a wait for something: a page that never asks still loads, and fails below.
    // eslint-disable-next-line tidewell/no-fixed-sleep
    await Promise.race([everyOne, new Promise((resolve) => setTimeout(resolve, 3_000))]);
    const heldFor = [...asked];
    await route.continue();
    whileHeld = heldFor;
  });
  return () => whileHeld;
}

test('the sign-in screen downloads at most 200 KB gzip and no editor', async ({ page }) => {
  await watchFirstScreen(page, '[data-amplify-authenticator] input[name="username"]');
  await page.goto('/#/home');
  const screen = await firstScreenOf(page);
  await expect(page.getByLabel('Email')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sign-in.png` });

  const { total, listing } = report('sign-in', screen);
  expect(screen.downloads.some((d) => d.code.includes(AUTHENTICATOR))).toBe(true);
  expect(screen.downloads.filter((d) => d.code.includes(EDITOR)).map((d) => d.path)).toEqual([]);
  expect(total, listing).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_GZIP);
  expect(screen.violations).toEqual([]);
  // config.json is asked for once, by the page itself while the app's code downloads, and the app
  // takes that answer rather than asking again once its code has run.
  const configAsks = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((r) => new URL(r.name).pathname === '/config.json')
      .map((r) => (r as PerformanceResourceTiming).initiatorType),
  );
  expect(configAsks).toEqual(['link']);
});

test('a signed-in user landing on /home downloads at most 200 KB gzip, without the Authenticator or the editor', async ({ browser }) => {
  const signedIn = await browser.newContext();
  const afterSignIn = await signedIn.newPage();
  await signIn(afterSignIn, PROVIDER, '/home');
  await expect(afterSignIn.getByRole('heading', { name: 'My Open Tasks' })).toBeVisible();
  await afterSignIn.screenshot({ path: `${SHOTS}/home-after-sign-in.png` });
  const storageState = await signedIn.storageState();
  await signedIn.close();

  // A fresh browser cache with the saved session: what a returning clinician downloads.
  const context = await browser.newContext({ storageState });
  const page = await context.newPage();
  // The dashboard's title renders inside the shell, once the /home route's code is in.
  await watchFirstScreen(page, '#home-title');
  const dashboardCode = await askedWhileTheAppDownloads(page, ['dashboard-page-']);
  await page.goto('/#/home');
  await expect(page.getByRole('heading', { name: 'My Open Tasks' })).toBeVisible();
  const screen = await firstScreenOf(page);
  await page.screenshot({ path: `${SHOTS}/home.png` });

  const { total, listing } = report('home', screen);
  expect(screen.downloads.filter((d) => d.code.includes(AUTHENTICATOR)).map((d) => d.path)).toEqual([]);
  expect(screen.downloads.filter((d) => d.code.includes(EDITOR)).map((d) => d.path)).toEqual([]);
  expect(total, listing).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_GZIP);
  expect(screen.violations).toEqual([]);
  // The dashboard's code was asked for beside the app's, not once the app had run.
  expect(dashboardCode()).toEqual(['dashboard-page-']);
  await context.close();
});

test("a returning user landing on a chart asks for its header's code beside the app's, counts the menu badges once it has settled, and uses every file preloaded", async ({
  browser,
}) => {
  const signedIn = await browser.newContext();
  await signIn(await signedIn.newPage(), PROVIDER, '/home');
  const storageState = await signedIn.storageState();
  await signedIn.close();

  const context = await browser.newContext({ storageState });
  const page = await context.newPage();
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  await watchFirstScreen(page, '.tw-next-visits');
  const headerCode = await askedWhileTheAppDownloads(page, ['patient-chart-page-', 'next-visits-']);
  await page.goto('/#/patients/pat-0001');
  await expect(page.getByRole('heading', { name: 'Health Summary' })).toBeVisible();
  const screen = await firstScreenOf(page);
  await page.screenshot({ path: `${SHOTS}/chart.png` });

  // Asked for while the app's own code was still on its way, not once it had run.
  expect(headerCode().sort()).toEqual(['next-visits-', 'patient-chart-page-']);
  // The panels ask for their answers once the header shows its next visits, not while it renders them.
  const panels = /\/patients\/[^/]+\/(general|allergies|medications)$|\/v2\/notes$/.source;
  // The menu badges count once the screen has settled: a count answered while the chart renders would make React start that render over.
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.includes('/v1/phone-calls/count')))).toBe(true);
  const { visitsShownAt, panelAsks, panelsAnsweredAt, badgeAsks } = await page.evaluate((source) => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const ofPanels = resources.filter((r) => new RegExp(source).test(new URL(r.name).pathname));
    return {
      visitsShownAt: (window as unknown as { __firstScreenAt: number }).__firstScreenAt,
      panelAsks: ofPanels.map((r) => r.startTime),
      panelsAnsweredAt: Math.max(...ofPanels.map((r) => r.responseEnd)),
      badgeAsks: resources.filter((r) => new URL(r.name).pathname.endsWith('/v1/phone-calls/count')).map((r) => r.startTime),
    };
  }, panels);
  expect(panelAsks.length).toBeGreaterThan(0);
  expect(badgeAsks.length).toBeGreaterThan(0);
  expect(Math.min(...panelAsks)).toBeGreaterThan(visitsShownAt);
  expect(Math.min(...badgeAsks)).toBeGreaterThan(panelsAnsweredAt);
  expect(screen.violations).toEqual([]);
  // Chromium warns of a preload left unused 3 s after the load: the wait is the subject.
  // eslint-disable-next-line tidewell/no-fixed-sleep
  await page.waitForTimeout(3_500);
  expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
  await context.close();
});
