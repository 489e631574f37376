const IDLE_TIMEOUT_MS = 2_000;
/** A screen that never finishes (an error view) must not hold back live updates for good. */
const FIRST_SCREEN_TIMEOUT_MS = 10_000;

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

/**
 * Resolves when the first screen is up and the browser is idle: the moment to fetch code the first
 * screen does not need but the next click may (menus, the live notification feed).
 */
export function afterFirstScreen(): Promise<void> {
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, FIRST_SCREEN_TIMEOUT_MS));
  return Promise.race([firstScreen, timeout]).then(idle);
}
