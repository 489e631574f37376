import { afterEach, describe, expect, it } from 'vitest';
import { claimFormDrafts, clearAllFormDrafts, clearFormDraft, clearFormDrafts, formDraftKeys, readFormDraft, saveFormDraft } from './form-drafts.js';

afterEach(() => clearAllFormDrafts());

describe('form drafts', () => {
  it('keeps typed values until the form clears them', () => {
    saveFormDraft('chart:pat-1:allergies:new', { name: 'Peanuts' });
    expect(readFormDraft('chart:pat-1:allergies:new')).toEqual({ name: 'Peanuts' });
    clearFormDraft('chart:pat-1:allergies:new');
    expect(readFormDraft('chart:pat-1:allergies:new')).toBeNull();
  });

  it('lists and drops the drafts under a prefix only', () => {
    saveFormDraft('chart:pat-1:allergies:new', { name: 'Peanuts' });
    saveFormDraft('chart:pat-1:medications:m1', { name: 'Metformin' });
    saveFormDraft('task:new', { title: 'Call back' });
    expect(formDraftKeys('chart:').sort()).toEqual(['chart:pat-1:allergies:new', 'chart:pat-1:medications:m1']);
    clearFormDrafts('chart:');
    expect(formDraftKeys('chart:')).toEqual([]);
    expect(readFormDraft('task:new')).toEqual({ title: 'Call back' });
  });

  it('keeps nothing in browser storage, where a restored browser session would bring it back', () => {
    const stored: string[] = [];
    const storage = { setItem: (k: string) => stored.push(k), getItem: () => null, removeItem: () => undefined };
    Object.assign(globalThis, { window: { sessionStorage: storage, localStorage: storage }, sessionStorage: storage, localStorage: storage });
    try {
      saveFormDraft('chart:pat-1:allergies:new', { name: 'Peanuts' });
      expect(readFormDraft('chart:pat-1:allergies:new')).toEqual({ name: 'Peanuts' });
      expect(stored).toEqual([]);
    } finally {
      for (const k of ['window', 'sessionStorage', 'localStorage']) Reflect.deleteProperty(globalThis, k);
    }
  });

  it('drops everything at sign-out, and another user signing in never sees the drafts of the one before', () => {
    claimFormDrafts('user-a');
    saveFormDraft('chart:pat-1:allergies:new', { name: 'Peanuts' });
    // The same user signing in again (an expired session renewed mid-visit) keeps the text.
    claimFormDrafts('user-a');
    expect(readFormDraft('chart:pat-1:allergies:new')).toEqual({ name: 'Peanuts' });
    claimFormDrafts('user-b');
    expect(readFormDraft('chart:pat-1:allergies:new')).toBeNull();

    saveFormDraft('task:new', { title: 'Call back' });
    clearAllFormDrafts();
    expect(formDraftKeys('')).toEqual([]);
  });
});
