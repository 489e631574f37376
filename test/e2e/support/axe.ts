import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The rule sets every screen is held to: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** One line per violated rule: the rule, its impact, what it asks and the first elements that break it. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.map((violation) => {
    const targets = violation.nodes.slice(0, 4).map((node) => node.target.join(' '));
    const more = violation.nodes.length > 4 ? ` (+${violation.nodes.length - 4} more)` : '';
    // The first element's own explanation (the measured ratio and colours, for contrast).
    const why = violation.nodes[0]?.failureSummary?.replace(/\s+/g, ' ').slice(0, 240) ?? '';
    return `${violation.id} [${violation.impact ?? 'n/a'}] ${violation.help}: ${targets.join(' | ')}${more}. ${why}`;
  });
}

/**
 * Fails (softly, so one run lists every screen that breaks) when axe finds a WCAG 2.0/2.1 A or AA
 * violation on what the page shows now; the message names the screen and each rule.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  expect.soft(violations, `axe: ${screen} has WCAG A/AA violations:\n${violations.join('\n')}`).toEqual([]);
  const overflow = await horizontalOverflow(page);
  expect.soft(overflow, `reflow (WCAG 1.4.10): ${screen} is wider than the phone's screen`).toBeNull();
}

/**
 * WCAG 1.4.10 (AA), which axe cannot see: at phone width the page must not scroll sideways. A data
 * table may scroll inside its own box; the page as a whole may not. Answers what sticks out, or null.
 */
export async function horizontalOverflow(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    if (width > 480) return null;
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth <= width + 1) return null;
    const widest = [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && el.offsetParent !== null)
      .slice(0, 3)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} (right edge ${Math.round(el.getBoundingClientRect().right)} px)`,
      );
    return `page is ${root.scrollWidth} px wide in a ${width} px screen: ${widest.join(', ')}`;
  });
}

/**
 * Images without a name (axe role-img-alt), checked on their own where the rest of the screen is
 * checked later: what a pending button says must not outlive the button as a nameless image.
 */
export async function namelessImages(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withRules(['role-img-alt']).analyze();
  return results.violations.flatMap((violation) => violation.nodes.map((node) => node.target.join(' ')));
}

export interface Viewport {
  name: string;
  width: number;
  height: number;
}

/** The two sizes every screen is held to: a desktop and a phone. */
export const DESKTOP: Viewport = { name: 'desktop', width: 1280, height: 800 };
export const PHONE: Viewport = { name: 'phone', width: 390, height: 844 };
export const VIEWPORTS: readonly Viewport[] = [DESKTOP, PHONE];

/** Resizes the page and waits until the app has laid itself out again (two frames after the resize). */
export async function resizeTo(page: Page, viewport: Viewport): Promise<void> {
  await page.setViewportSize({ width: viewport.width, height: viewport.height });
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

export interface AtEachViewport {
  /** Where to keep a screenshot of the screen at each size. */
  screenshot?: (viewport: Viewport) => string;
  fullPage?: boolean;
}

/**
 * `expectAccessible` for what the page shows now, at the desktop and then the phone size, named
 * "<screen> (<size name> <width>px)". The page is resized in place, so one test's sign-in, data and
 * navigation serve both sizes; it is back at the desktop size afterwards.
 */
export async function expectAccessibleAtEach(page: Page, screen: string, { screenshot, fullPage = false }: AtEachViewport = {}): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await resizeTo(page, viewport);
    await expectAccessible(page, `${screen} (${viewport.name} ${viewport.width}px)`);
    if (screenshot) await page.screenshot({ path: screenshot(viewport), fullPage });
  }
  await resizeTo(page, DESKTOP);
}

/** A screenshot of what the page shows now at each size, named by `path`; back at the desktop size afterwards. */
export async function screenshotAtEach(page: Page, path: (viewport: Viewport) => string, fullPage = false): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await resizeTo(page, viewport);
    await page.screenshot({ path: path(viewport), fullPage });
  }
  await resizeTo(page, DESKTOP);
}
