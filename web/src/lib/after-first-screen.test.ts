import { QueryClient } from '@tanstack/react-query';
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

describe('afterFirstScreenSettles', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.resetModules();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits for the screen to show and for what holds it (a widget whose code is loading) to let go', async () => {
    const { afterFirstScreen, afterFirstScreenSettles, holdFirstScreen, markFirstScreenShown } = await import('./after-first-screen.js');
    const release = holdFirstScreen();
    let shown = false;
    let settled = false;
    void afterFirstScreen().then(() => (shown = true));
    void afterFirstScreenSettles().then(() => (settled = true));
    markFirstScreenShown();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(shown).toBe(true);
    expect(settled).toBe(false);
    release();
    release();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });

  it("waits for the first screen's answers, and for the requests those answers lead to", async () => {
    // A browser's idle moment comes after it has rendered what arrived.
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => setTimeout(callback, 50));
    const { afterFirstScreenSettles, markFirstScreenShown } = await import('./after-first-screen.js');
    const { holdWhileFetching } = await import('./hold-while-fetching.js');
    const client = new QueryClient();
    const answers: Record<string, (value: string) => void> = {};
    const ask = (key: string) => void client.fetchQuery({ queryKey: [key], queryFn: () => new Promise<string>((resolve) => (answers[key] = resolve)) });
    ask('tasks');
    const stop = holdWhileFetching(client);
    let settled = false;
    void afterFirstScreenSettles().then(() => (settled = true));
    markFirstScreenShown();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(settled).toBe(false);

    // The drafts' answer names a patient, whose record is asked for once that answer has rendered,
    // before the browser had its idle moment.
    ask('drafts');
    answers.tasks('[]');
    answers.drafts('[draft]');
    await vi.advanceTimersByTimeAsync(10);
    ask('patient');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(settled).toBe(false);
    answers.patient('Aisha');
    await vi.advanceTimersByTimeAsync(100);
    expect(settled).toBe(true);
    stop();
  });

  it('does not wait more than 10 s (and an idle moment) for a screen whose answer never comes', async () => {
    const { afterFirstScreenSettles, holdFirstScreen, markFirstScreenShown } = await import('./after-first-screen.js');
    holdFirstScreen();
    let settled = false;
    void afterFirstScreenSettles().then(() => (settled = true));
    markFirstScreenShown();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(101);
    expect(settled).toBe(true);
  });

  it("runs each caller's work in an idle moment of its own, so that a tap can be answered between them", async () => {
    // A browser runs each idle callback as a task of its own.
    const idleCallbacks: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idleCallbacks.push(callback));
    const { afterFirstScreenSettles, markFirstScreenShown } = await import('./after-first-screen.js');
    const ran: string[] = [];
    void afterFirstScreenSettles().then(() => ran.push('menus'));
    void afterFirstScreenSettles().then(() => ran.push('live feed'));
    markFirstScreenShown();
    const nextIdleTask = async () => {
      await vi.advanceTimersByTimeAsync(0);
      idleCallbacks.shift()?.();
      await vi.advanceTimersByTimeAsync(0);
    };
    await nextIdleTask(); // the first screen has settled
    expect(ran).toEqual([]);
    await nextIdleTask();
    expect(ran).toEqual(['menus']);
    await nextIdleTask();
    expect(ran).toEqual(['menus', 'live feed']);
    vi.unstubAllGlobals();
  });
});
