import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const MINUTE = 60_000;

/** The browser's pieces screen-lock.ts touches: localStorage, storage events and timers (faked by vitest). */
function stubBrowser() {
  const items = new Map<string, string>();
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    },
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    // The idle timer's own timer, run by vitest's fake clock: nothing here waits in real time.
    // eslint-disable-next-line tidewell/no-fixed-sleep
    setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
    clearTimeout: (handle: number) => clearTimeout(handle),
  });
}

describe('screen lock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-12-02T09:00:00Z'));
    stubBrowser();
    vi.resetModules();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('after unlocking, the idle time counts from the unlock, so the screen does not lock again at once', async () => {
    const lock = await import('./screen-lock.js');
    const { createIdleTimer } = await import('./idle-timer.js');
    // The timer as the shell starts it whenever the screen is unlocked (idle-lock.tsx).
    const startTimer = () =>
      createIdleTimer({
        idleMs: MINUTE,
        onIdle: () => lock.lockScreen(1),
        since: lock.lastActivity() ?? undefined,
        lastActivityElsewhere: () => lock.lastActivity() ?? 0,
      });

    lock.recordActivity(Date.now());
    const before = startTimer();
    vi.advanceTimersByTime(MINUTE + 5_000);
    expect(lock.screenLock()).not.toBeNull();
    before.stop();

    // The user reads the lock for a while, then signs in again.
    vi.advanceTimersByTime(3 * MINUTE);
    lock.unlockScreen();
    expect(lock.screenLock()).toBeNull();
    const after = startTimer();
    vi.advanceTimersByTime(MINUTE - 1_000);
    expect(lock.screenLock()).toBeNull();
    vi.advanceTimersByTime(2_000);
    expect(lock.screenLock()).toMatchObject({ minutes: 1 });
    after.stop();
  });

  it('signing out clears the lock and the idle time, so the next user starts unlocked', async () => {
    const lock = await import('./screen-lock.js');
    lock.recordActivity(Date.now());
    lock.lockScreen(15);
    lock.clearScreenLock();
    expect(lock.screenLock()).toBeNull();
    expect(lock.lastActivity()).toBeNull();
  });

  it("hides the session's tokens from the password check only until it stores new ones, which the sign-in reads back before it returns", async () => {
    const lock = await import('./screen-lock.js');
    const seen: boolean[] = [];
    const result = await lock.whileVerifyingPassword(async () => {
      seen.push(lock.isVerifyingPassword());
      lock.tokensStored();
      seen.push(lock.isVerifyingPassword());
      return 'signed in';
    });
    expect(result).toBe('signed in');
    expect(seen).toEqual([true, false]);
    expect(lock.isVerifyingPassword()).toBe(false);
    // A refused password stores nothing; the next check hides the tokens again.
    await expect(lock.whileVerifyingPassword(() => Promise.reject(new Error('Incorrect username or password.')))).rejects.toThrow();
    await lock.whileVerifyingPassword(async () => seen.push(lock.isVerifyingPassword()));
    expect(seen).toEqual([true, false, true]);
  });
});
