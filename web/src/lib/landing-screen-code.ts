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

/**
 * A returning user's landing screen: its code downloads beside the signed-in app's, rather than
 * once the app has run and its router asks for it. Preloaded, not run: the app sets zod up before
 * any schema module runs, and the router's own import then finds the modules loaded. Without the
 * lists (the dev server) the router asks as usual.
 */
export function preloadLandingScreenCode(screen: LandingScreen, doc: Document = document): void {
  const listed = doc.getElementById(LANDING_SCREEN_CODE_ID)?.textContent;
  if (!listed) return;
  for (const href of (JSON.parse(listed) as Partial<Record<LandingScreen, string[]>>)[screen] ?? []) {
    const link = doc.createElement('link');
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else link.rel = 'modulepreload';
    // As the build's own preloads ask: the later import and stylesheet then take these answers.
    link.crossOrigin = '';
    link.href = href;
    doc.head.appendChild(link);
  }
}
