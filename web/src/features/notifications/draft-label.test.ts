import { describe, expect, it } from 'vitest';
import { draftLabel } from './draft-label.js';

describe('draftLabel', () => {
  it('names the kind of note and the patient', () => {
    expect(draftLabel('Draft phone call', 'Maria Lopez (42)')).toBe('Draft phone call for Maria Lopez (42)');
  });

  it('names the kind alone while the patient is unknown or loading', () => {
    expect(draftLabel('Draft email', undefined)).toBe('Draft email');
    expect(draftLabel(null, undefined)).toBe('Draft note');
  });
});
