const IDLE_TIMEOUT_MS = 2_000;
/** A screen that never finishes (an error view, a request that hangs) must not hold back live updates for good. */
const FIRST_SCREEN_TIMEOUT_MS = 10_000;

let markShown: () => void = () => undefined;
const firstScreen = new Promise<void>((resolve) => {
  markShown = resolve;
});

/** Called by the shell once the first route's screen has rendered inside it. */
export function markFirstScreenShown(): void {
  markShown();
}

let holds = 0;
const released: (() => void)[] = [];

/**
 * Keeps `afterFirstScreenSettles()` waiting while part of the first screen is still on its way
 * (its data in flight, a widget's code loading). Returns the release; releasing twice is harmless.
 */
export function holdFirstScreen(): () => void {
  holds += 1;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    holds -= 1;
    if (holds === 0) for (const wake of released.splice(0)) wake();
  };
}

function noHolds(): Promise<void> {
  return holds === 0 ? Promise.resolve() : new Promise((resolve) => released.push(resolve));
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
 * Resolves when the first screen is up and the browser is idle: the moment to fetch what the
 * first screen's own answers need to be read (the badges' schemas).
 */
export function afterFirstScreen(): Promise<void> {
  return Promise.race([firstScreen, delay(FIRST_SCREEN_TIMEOUT_MS)]).then(idle);
}

/**
 * A hold taken while the browser waited for its idle moment (an answer that asked for more data)
 * counts too: the idle moment is awaited again once it is released.
 */
async function settle(): Promise<void> {
  await firstScreen;
  for (;;) {
    await noHolds();
    await idle();
    if (holds === 0) return;
  }
}

let settled: Promise<void> | undefined;

/**
 * Resolves when the first screen is up, nothing holds it any more (its data has arrived and
 * rendered) and the browser is idle: the moment to fetch code the first screen does not need but
 * the next click may (the top bar's menus, the live notification feed). Loaded earlier, that code's
 * parsing competes with the screen's own widgets on a phone. Gives up waiting after 10 s.
 */
export function afterFirstScreenSettles(): Promise<void> {
  settled ??= Promise.race([settle(), delay(FIRST_SCREEN_TIMEOUT_MS).then(idle)]);
  // Each caller's work runs in an idle moment of its own: run together, the menus, the live feed
  // and the chart's code made one long task that a phone could not interrupt for a tap.
  return settled.then(idle);
}
