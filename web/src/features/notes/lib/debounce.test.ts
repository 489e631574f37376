import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTE_TIMING } from '../../../../../shared/notes/note-constants.js';
import { debounce } from './debounce.js';

describe('debounce with a maximum wait', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves a draft 5 s after the last keystroke with the latest text', () => {
    const save = vi.fn();
    const autosave = debounce(save, NOTE_TIMING.autosaveDebounceMs, NOTE_TIMING.autosaveMaxWaitMs);
    autosave('a');
    vi.advanceTimersByTime(4_000);
    autosave('ab');
    vi.advanceTimersByTime(4_999);
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledExactlyOnceWith('ab');
  });

  it('saves after 30 s even while the user never pauses for 5 s', () => {
    const save = vi.fn();
    const autosave = debounce(save, NOTE_TIMING.autosaveDebounceMs, NOTE_TIMING.autosaveMaxWaitMs);
    for (let t = 0; t < 30_000; t += 1_000) {
      autosave(`text at ${t}`);
      vi.advanceTimersByTime(1_000);
    }
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith('text at 29000');
  });

  it('emits editor changes at most every 3 s while typing continuously', () => {
    const emit = vi.fn();
    const change = debounce(emit, NOTE_TIMING.editorChangeDebounceMs, NOTE_TIMING.editorChangeMaxWaitMs);
    for (let t = 0; t < 6_000; t += 100) {
      change(t);
      vi.advanceTimersByTime(100);
    }
    expect(emit).toHaveBeenCalledTimes(2);
  });

  it('flush runs the pending call now and cancel drops it', () => {
    const save = vi.fn();
    const autosave = debounce(save, 5_000, 30_000);
    autosave('x');
    expect(autosave.isPending()).toBe(true);
    autosave.flush();
    expect(save).toHaveBeenCalledExactlyOnceWith('x');
    autosave('y');
    autosave.cancel();
    vi.advanceTimersByTime(60_000);
    expect(save).toHaveBeenCalledTimes(1);
  });
});
