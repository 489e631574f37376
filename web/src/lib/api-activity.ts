/**
 * API requests in flight, so code the first screen does not need can wait until the screen's own
 * answers are in (after-first-screen.ts) rather than compete with them on a slow phone.
 */
let inFlight = 0;
const waiters: (() => void)[] = [];

export function trackApiRequest<T>(request: Promise<T>): Promise<T> {
  inFlight += 1;
  const done = () => {
    inFlight -= 1;
    if (inFlight === 0) for (const wake of waiters.splice(0)) wake();
  };
  request.then(done, done);
  return request;
}

function noneInFlight(): Promise<void> {
  return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
}

/** Resolves once no API request has been in flight for `quietMs` (a screen's follow-up requests start within it). */
export async function whenApiQuiet(quietMs: number): Promise<void> {
  for (;;) {
    await noneInFlight();
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    if (inFlight === 0) return;
  }
}
