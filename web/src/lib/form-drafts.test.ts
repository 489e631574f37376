import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clearFormDraft, clearFormDrafts, formDraftKeys, readFormDraft, saveFormDraft } from './form-drafts.js';

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
    saveFormDraft('chart:pat-1:surgeries:s-1', { name: 'Appendectomy' });
    saveFormDraft('chart:pat-2:allergies:new', { name: 'Latex' });
    expect(formDraftKeys('chart:pat-1:').sort()).toEqual(['chart:pat-1:allergies:new', 'chart:pat-1:surgeries:s-1']);
    clearFormDrafts('chart:pat-1:');
    expect(formDraftKeys('chart:')).toEqual(['chart:pat-2:allergies:new']);
  });

  it('reads a damaged draft as none', () => {
    sessionStorage.setItem('tw-form-draft:broken', '{');
    expect(readFormDraft('broken')).toBeNull();
  });
});
