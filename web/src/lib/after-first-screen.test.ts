import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

describe('afterFirstScreen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.resetModules();
  });
  afterEach(() => vi.useRealTimers());

  it('waits for the shell to mark its first screen, then for an idle moment', async () => {
    const { afterFirstScreen, markFirstScreenShown } = await import('./after-first-screen.js');
    let done = false;
    void afterFirstScreen().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(done).toBe(false);
    markFirstScreenShown();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('gives up waiting after 10 s, so an error screen does not hold back what follows', async () => {
    const { afterFirstScreen } = await import('./after-first-screen.js');
    let done = false;
    void afterFirstScreen().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(done).toBe(true);
  });
});
