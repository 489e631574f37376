import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shownAndPainted } from './shown-and-painted.js';

describe('shownAndPainted', () => {
  let frames: FrameRequestCallback[] = [];
  const nextFrame = () => {
    const due = frames;
    frames = [];
    for (const callback of due) callback(performance.now());
  };
  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const watch = (promise: Promise<void>) => {
    const state = { done: false };
    void promise.then(() => (state.done = true));
    return state;
  };

  it('waits for the header to say it shows its answer, then for the frame that paints it to be on screen', async () => {
    const { shown, painted } = shownAndPainted(Promise.resolve(), 1_000);
    const state = watch(painted);
    await vi.advanceTimersByTimeAsync(500);
    expect(state.done).toBe(false); // answered, not yet shown
    shown();
    await vi.advanceTimersByTimeAsync(0);
    nextFrame(); // the frame that paints the header
    await vi.advanceTimersByTimeAsync(0);
    expect(state.done).toBe(false);
    nextFrame(); // the next: the painted one is on screen
    await vi.advanceTimersByTimeAsync(0);
    expect(state.done).toBe(true);
  });

  it('gives up waiting a while after the answers when the header never says so', async () => {
    let answer: () => void = () => undefined;
    const { painted } = shownAndPainted(new Promise<void>((resolve) => (answer = resolve)), 1_000);
    const state = watch(painted);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(state.done).toBe(false); // no answer yet: nothing to wait a while after
    answer();
    await vi.advanceTimersByTimeAsync(999);
    expect(state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.done).toBe(true);
  });
});
