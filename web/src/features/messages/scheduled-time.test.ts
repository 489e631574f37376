import { describe, expect, it } from 'vitest';
import { defaultSendTime, fromLocalInput, toLocalInput } from './scheduled-time.js';

describe('scheduled send time', () => {
  it('round-trips a local date and time to the second', () => {
    const at = new Date(2026, 10, 25, 9, 5, 7);
    expect(toLocalInput(at)).toBe('2026-11-25T09:05:07');
    expect(fromLocalInput('2026-11-25T09:05:07')).toBe(at.toISOString());
    expect(fromLocalInput('2026-11-25T09:05')).toBe(new Date(2026, 10, 25, 9, 5).toISOString());
    expect(fromLocalInput('tomorrow')).toBeNull();
  });

  it('defaults to a whole hour at least half an hour ahead', () => {
    expect(toLocalInput(defaultSendTime(new Date(2026, 10, 25, 9, 10)))).toBe('2026-11-25T10:00:00');
    expect(toLocalInput(defaultSendTime(new Date(2026, 10, 25, 9, 40)))).toBe('2026-11-25T11:00:00');
  });
});
