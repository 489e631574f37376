import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { claimFormDrafts, clearAllFormDrafts, clearFormDraft, clearFormDrafts, formDraftKeys, readFormDraft, saveFormDraft } from './form-drafts.js';

/** The tab's session storage, as the browser keeps it (the unit tests run without a DOM). */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

const sessionStorage = new MemoryStorage();
Object.assign(globalThis, { window: { sessionStorage } });
afterEach(() => sessionStorage.clear());
afterAll(() => Reflect.deleteProperty(globalThis, 'window'));

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
    expect(sessionStorage.length).toBe(0);
  });
});
