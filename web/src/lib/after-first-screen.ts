import { whenApiQuiet } from './api-activity.js';

const IDLE_TIMEOUT_MS = 2_000;
/** A screen that never finishes (an error view) must not hold back live updates for good. */
const FIRST_SCREEN_TIMEOUT_MS = 10_000;
/** A screen's widgets ask for their data within this long of each other's answers. */
const API_QUIET_MS = 500;
/** A screen whose requests never stop (a poll faster than the quiet window) waits no longer than this. */
const SETTLE_TIMEOUT_MS = 5_000;

let markShown: () => void = () => undefined;
const firstScreen = new Promise<void>((resolve) => {
  markShown = resolve;
});

/** Called by the shell once the first route's screen has rendered inside it. */
export function markFirstScreenShown(): void {
  markShown();
}

function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(resolve, 0);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Resolves when the first screen is up, its data has arrived and the browser is idle: the moment to
 * fetch code the first screen does not need but the next click may (menus, the live notification
 * feed). Loaded earlier, that code's parsing competes with the screen's own widgets on a phone.
 */
export function afterFirstScreen(): Promise<void> {
  return Promise.race([firstScreen, delay(FIRST_SCREEN_TIMEOUT_MS)])
    .then(() => Promise.race([whenApiQuiet(API_QUIET_MS), delay(SETTLE_TIMEOUT_MS)]))
    .then(idle);
}
