import { chartPatientOf } from './chart-address.js';

/** The id of index.html's lists of the files each landing screen needs (written by the build: build-plugins.ts). */
export const LANDING_SCREEN_CODE_ID = 'landing-screen-code';

/** The screens a returning user most often lands on, whose code index.html lists. */
export type LandingScreen = 'home' | 'chart';

/** The landing screen at this address, if it is one of those. */
export function landingScreenOf(hash: string): LandingScreen | undefined {
  if (chartPatientOf(hash) !== undefined) return 'chart';
  const path = hash.replace(/^#/, '').split('?')[0];
  return path === '' || path === '/' || path === '/home' ? 'home' : undefined;
}

/** How many preload links go into the page per task: each costs a phone's page a few milliseconds. */
export const LINKS_PER_TASK = 4;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A returning user's landing screen: its code downloads beside the signed-in app's, rather than
 * once the app has run and its router asks for it. Preloaded, not run: the app sets zod up before
 * any schema module runs, and the router's own import then finds the modules loaded. Without the
 * lists (the dev server) the router asks as usual.
 *
 * A chart lists some forty files. Their links go in a few at a time, each batch in a task of its
 * own, the first too (the page's start-up task is long already): all in one task held a phone's
 * page for over 100 ms while it started.
 */
export async function preloadLandingScreenCode(screen: LandingScreen, doc: Document = document): Promise<void> {
  const listed = doc.getElementById(LANDING_SCREEN_CODE_ID)?.textContent;
  if (!listed) return;
  const files = (JSON.parse(listed) as Partial<Record<LandingScreen, string[]>>)[screen] ?? [];
  for (let start = 0; start < files.length; start += LINKS_PER_TASK) {
    await nextTask();
    for (const href of files.slice(start, start + LINKS_PER_TASK)) doc.head.appendChild(preloadLink(doc, href));
  }
}

function preloadLink(doc: Document, href: string): HTMLLinkElement {
  const link = doc.createElement('link');
  if (href.endsWith('.css')) {
    link.rel = 'preload';
    link.as = 'style';
  } else link.rel = 'modulepreload';
  // As the build's own preloads ask: the later import and stylesheet then take these answers.
  link.crossOrigin = '';
  link.href = href;
  return link;
}
