import { describe, expect, it } from 'vitest';
import { isAnyNoteRecording, setNoteRecording } from './recording-status.js';

describe('recording status', () => {
  it('is on while any note records', () => {
    expect(isAnyNoteRecording()).toBe(false);
    setNoteRecording('a', true);
    setNoteRecording('b', true);
    setNoteRecording('a', false);
    expect(isAnyNoteRecording()).toBe(true);
    setNoteRecording('b', false);
    expect(isAnyNoteRecording()).toBe(false);
  });
});
