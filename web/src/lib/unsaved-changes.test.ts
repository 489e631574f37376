import { describe, expect, it } from 'vitest';
import { hasUnsavedChanges, setUnsavedChanges, unsavedChangeKeys, UNSAVED_CHANGES_MESSAGE } from './unsaved-changes.js';

describe('unsaved-changes registry', () => {
  it('guards while any registered form is dirty, by key', () => {
    expect(hasUnsavedChanges()).toBe(false);
    setUnsavedChanges('allergies', true);
    setUnsavedChanges('diagnoses', true);
    expect(unsavedChangeKeys()).toEqual(['allergies', 'diagnoses']);
    setUnsavedChanges('allergies', false);
    expect(hasUnsavedChanges()).toBe(true);
    setUnsavedChanges('diagnoses', false);
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('asks with the spec wording', () => {
    expect(UNSAVED_CHANGES_MESSAGE).toBe('You have unsaved changes, are you sure you want to leave?');
  });
});
