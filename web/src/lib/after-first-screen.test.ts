import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

describe('afterFirstScreen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.resetModules();
  });
  afterEach(() => vi.useRealTimers());

  it('waits for the shell to mark its first screen, then for the API to be quiet and an idle moment', async () => {
    const { afterFirstScreen, markFirstScreenShown } = await import('./after-first-screen.js');
    let done = false;
    void afterFirstScreen().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(done).toBe(false);
    markFirstScreenShown();
    await vi.advanceTimersByTimeAsync(499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(done).toBe(true);
  });

  it("waits for the first screen's answers to arrive before loading what it does not need", async () => {
    const { afterFirstScreen, markFirstScreenShown } = await import('./after-first-screen.js');
    const { trackApiRequest } = await import('./api-activity.js');
    let answer: (value: string) => void = () => undefined;
    void trackApiRequest(new Promise<string>((resolve) => (answer = resolve)));
    let done = false;
    void afterFirstScreen().then(() => (done = true));
    markFirstScreenShown();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(done).toBe(false);
    answer('tasks');
    await vi.advanceTimersByTimeAsync(501);
    expect(done).toBe(true);
  });

  it('does not wait more than 5 s for a screen whose requests never stop', async () => {
    const { afterFirstScreen, markFirstScreenShown } = await import('./after-first-screen.js');
    const { trackApiRequest } = await import('./api-activity.js');
    void trackApiRequest(new Promise<string>(() => undefined));
    let done = false;
    void afterFirstScreen().then(() => (done = true));
    markFirstScreenShown();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(done).toBe(true);
  });

  it('gives up waiting for the first screen after 10 s, so an error screen does not hold back what follows', async () => {
    const { afterFirstScreen } = await import('./after-first-screen.js');
    let done = false;
    void afterFirstScreen().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(502);
    expect(done).toBe(true);
  });
});
