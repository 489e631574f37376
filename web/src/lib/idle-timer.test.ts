import { describe, expect, it } from 'vitest';
import { createIdleTimer, type IdleTimerClock } from './idle-timer.js';

/** A clock the test moves by hand; timers fire in time order as it passes them. */
function fakeClock() {
  let now = 0;
  let timers: Array<{ at: number; run: () => void; id: number }> = [];
  let next = 1;
  const clock: IdleTimerClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = next++;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const due = timers[0];
      if (!due || due.at > end) break;
      timers.shift();
      now = due.at;
      due.run();
    }
    now = end;
  };
  /** Time jumps without timers firing (a laptop asleep, a throttled tab). */
  const jump = (ms: number) => {
    now += ms;
  };
  return { clock, advance, jump, pending: () => timers.length };
}

const MINUTE = 60_000;

describe('idle timer', () => {
  it('fires once the idle time has passed without activity, and only once', () => {
    const { clock, advance } = fakeClock();
    let idle = 0;
    createIdleTimer({ idleMs: 15 * MINUTE, onIdle: () => (idle += 1), clock });
    advance(15 * MINUTE - 1);
    expect(idle).toBe(0);
    advance(1);
    expect(idle).toBe(1);
    advance(60 * MINUTE);
    expect(idle).toBe(1);
  });

  it('starts counting again at each activity', () => {
    const { clock, advance } = fakeClock();
    let idle = 0;
    const timer = createIdleTimer({ idleMs: 10 * MINUTE, onIdle: () => (idle += 1), clock });
    advance(9 * MINUTE);
    timer.activity();
    advance(9 * MINUTE);
    expect(idle).toBe(0);
    timer.activity();
    advance(10 * MINUTE - 1);
    expect(idle).toBe(0);
    advance(1);
    expect(idle).toBe(1);
  });

  it('keeps a single timer however many activity events come', () => {
    const { clock, advance, pending } = fakeClock();
    const timer = createIdleTimer({ idleMs: MINUTE, onIdle: () => undefined, clock });
    for (let i = 0; i < 1000; i += 1) {
      advance(10);
      timer.activity();
    }
    expect(pending()).toBe(1);
  });

  it('locks at once on a check after a sleep that outlasted the idle time', () => {
    const { clock, jump } = fakeClock();
    let idle = 0;
    const timer = createIdleTimer({ idleMs: 5 * MINUTE, onIdle: () => (idle += 1), clock });
    jump(6 * MINUTE);
    expect(idle).toBe(0);
    timer.check();
    expect(idle).toBe(1);
  });

  it('follows a shorter limit counted from the last activity', () => {
    const { clock, advance } = fakeClock();
    let idle = 0;
    const timer = createIdleTimer({ idleMs: 15 * MINUTE, onIdle: () => (idle += 1), clock });
    advance(3 * MINUTE);
    timer.setIdleMs(2 * MINUTE);
    expect(idle).toBe(1);

    const second = fakeClock();
    let idle2 = 0;
    const other = createIdleTimer({ idleMs: 15 * MINUTE, onIdle: () => (idle2 += 1), clock: second.clock });
    second.advance(MINUTE);
    other.setIdleMs(2 * MINUTE);
    second.advance(MINUTE - 1);
    expect(idle2).toBe(0);
    second.advance(1);
    expect(idle2).toBe(1);
  });

  it('does nothing once stopped', () => {
    const { clock, advance, pending } = fakeClock();
    let idle = 0;
    const timer = createIdleTimer({ idleMs: MINUTE, onIdle: () => (idle += 1), clock });
    timer.stop();
    advance(10 * MINUTE);
    timer.check();
    expect(idle).toBe(0);
    expect(pending()).toBe(0);
  });

  it('stays open while the user works in another tab', () => {
    const { clock, advance } = fakeClock();
    let idle = 0;
    let elsewhere = 0;
    createIdleTimer({ idleMs: 5 * MINUTE, onIdle: () => (idle += 1), clock, lastActivityElsewhere: () => elsewhere });
    advance(4 * MINUTE);
    elsewhere = clock.now();
    advance(4 * MINUTE);
    expect(idle).toBe(0);
    advance(MINUTE);
    expect(idle).toBe(1);
  });

  it('counts from the last activity before the page was opened again', () => {
    const { clock, advance } = fakeClock();
    advance(60 * MINUTE);
    let idle = 0;
    createIdleTimer({ idleMs: 15 * MINUTE, onIdle: () => (idle += 1), clock, since: clock.now() - 20 * MINUTE });
    advance(0);
    expect(idle).toBe(1);

    let soon = 0;
    createIdleTimer({ idleMs: 15 * MINUTE, onIdle: () => (soon += 1), clock, since: clock.now() - 10 * MINUTE });
    advance(5 * MINUTE - 1);
    expect(soon).toBe(0);
    advance(1);
    expect(soon).toBe(1);
  });
});
