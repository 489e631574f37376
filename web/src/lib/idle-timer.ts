/**
 * Counts the time since the user last touched the app and calls `onIdle` once it reaches
 * `idleMs`. Activity only stores a time stamp, so a stream of pointer moves costs nothing; the one
 * timer checks the real elapsed time when it fires (a sleeping laptop or a throttled background
 * tab fires late, and then locks at once).
 */
export interface IdleTimerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface IdleTimer {
  /** The user did something: the idle time starts again. */
  activity(): void;
  /** A new limit (the practice changed its setting); counts from the last activity. */
  setIdleMs(idleMs: number): void;
  /** Checks now, e.g. when the tab becomes visible again after the computer slept. */
  check(): void;
  stop(): void;
}

const browserClock: IdleTimerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => window.setTimeout(run, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
};

export interface IdleTimerOptions {
  idleMs: number;
  onIdle: () => void;
  clock?: IdleTimerClock;
  /** The last activity known when the timer starts (before a reload or a browser restart); now when absent. */
  since?: number;
  /** The last activity seen in another tab of the app: working in one tab keeps the others open. */
  lastActivityElsewhere?: () => number;
}

export function createIdleTimer(options: IdleTimerOptions): IdleTimer {
  const clock = options.clock ?? browserClock;
  let idleMs = options.idleMs;
  let last = options.since ?? clock.now();
  let handle: unknown = null;
  let stopped = false;

  const schedule = (ms: number) => {
    if (handle !== null) clock.clearTimeout(handle);
    handle = clock.setTimeout(check, Math.max(0, ms));
  };
  function check() {
    handle = null;
    if (stopped) return;
    last = Math.max(last, options.lastActivityElsewhere?.() ?? 0);
    const left = last + idleMs - clock.now();
    if (left <= 0) {
      stopped = true;
      options.onIdle();
    } else schedule(left);
  }
  schedule(last + idleMs - clock.now());

  return {
    activity() {
      if (!stopped) last = clock.now();
    },
    setIdleMs(next) {
      idleMs = next;
      if (!stopped) check();
    },
    check() {
      if (!stopped) check();
    },
    stop() {
      stopped = true;
      if (handle !== null) clock.clearTimeout(handle);
      handle = null;
    },
  };
}

/** The events that count as the user being there (pointer, keyboard, touch, wheel). */
export const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel'] as const;
