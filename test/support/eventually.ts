/**
 * The one way tests wait. A test waits for what the runtime does a little later (a vendor's
 * callback, a scheduled job, a state machine step, a socket message) by reading until it holds, so
 * it takes as long as the thing takes and no longer; when it never holds, the failure says what was
 * awaited and what was there last, instead of a bare timeout or an assertion on stale data.
 */

export interface WaitOptions {
  /** How long to keep reading before giving up (ms). */
  within?: number;
  /** Pause between reads (ms). */
  every?: number;
}

const show = (v: unknown): string => {
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  try {
    const text = JSON.stringify(v);
    if (text === undefined) return String(v);
    return text.length > 2_000 ? `${text.slice(0, 2_000)}… (${text.length} chars)` : text;
  } catch {
    return String(v);
  }
};

const pauseFor = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Reads until `done` holds on what `read` answers and answers that value. A read that throws counts
 * as not yet (the service may still be starting). Past `within` ms it throws an error naming `what`
 * was awaited with the last value or error seen.
 */
export async function eventually<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (v: T) => boolean = Boolean,
  { within = 10_000, every = 100 }: WaitOptions = {},
): Promise<T> {
  const started = Date.now();
  const until = started + within;
  let last: { value: T } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await read();
      if (done(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= until) {
      const seen = !last ? 'nothing was read' : 'error' in last ? `the last read failed with ${show(last.error)}` : `the last read was ${show(last.value)}`;
      throw new Error(`Waited ${Date.now() - started} ms for ${what}; ${seen}`);
    }
    await pauseFor(Math.min(every, Math.max(0, until - Date.now())));
  }
}

/**
 * Checks that `ok` keeps holding for `ms`, reading every `every` ms, and fails at the first read
 * where it does not. For a test that proves something does NOT happen (no second text, no second
 * run): the window must be as long as the mechanism would need to do it, and the caller says why.
 */
export async function holdsFor<T>(
  what: string,
  ms: number,
  read: () => T | Promise<T>,
  ok: (v: T) => boolean,
  { every = 100 }: Pick<WaitOptions, 'every'> = {},
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (!ok(value)) throw new Error(`Expected ${what} for ${ms} ms; it stopped holding with ${show(value)}`);
    if (Date.now() >= until) return value;
    await pauseFor(Math.min(every, Math.max(0, until - Date.now())));
  }
}

/**
 * Waits until the wall clock reaches `at` (epoch ms). Only for a test whose subject is the clock
 * itself: a time the product schedules for, a debounce or a rate window it must let pass.
 */
export async function untilTime(at: number): Promise<void> {
  const left = at - Date.now();
  if (left > 0) await pauseFor(left);
}

/** Reads until `probe` finds something (answers neither undefined nor null) and answers it; see `eventually`. */
export async function eventuallyFound<T>(what: string, probe: () => Promise<T | undefined | null>, options: WaitOptions = {}): Promise<T> {
  return (await eventually(what, probe, (v) => v !== undefined && v !== null, options)) as T;
}
