import { describe, expect, it } from 'vitest';
import { isLockable, NOTE_STATUS_TONE } from './note-constants.js';

describe('note constants', () => {
  it('locks only document, note, phone call and lab; colours per status', () => {
    expect(['DOCUMENT', 'NOTE', 'PHONE_CALL', 'LAB'].every((t) => isLockable(t as never))).toBe(true);
    expect(isLockable('EMAIL')).toBe(false);
    expect(NOTE_STATUS_TONE.DRAFT).toBe('info');
    expect(NOTE_STATUS_TONE.WRITTEN).toBe('warning');
    expect(NOTE_STATUS_TONE.TEMPLATE).toBe('dark');
    expect(NOTE_STATUS_TONE.FAILED).toBe('danger');
  });
});
