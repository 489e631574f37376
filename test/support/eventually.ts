/**
 * Reads until `done` holds or `ms` pass, and answers the last read either way, so the test's own
 * assertion on it says what was there instead of a bare timeout. For what the runtime does a
 * little later: a vendor's callback, a scheduled job, a state machine step.
 */
export async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000, everyMs = 250): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
