/**
 * Typed-but-unsaved form values kept in this tab's session storage, so they outlive the screen
 * that holds the form. The router cannot hold back every navigation: a URL typed into the address
 * bar of a hash-routed app (and Back in some browsers) changes the screen without asking, and the
 * form's text would go with it. The form starts from its draft when it opens again.
 */
const PREFIX = 'tw-form-draft:';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function saveFormDraft(key: string, values: unknown): void {
  try {
    storage()?.setItem(PREFIX + key, JSON.stringify(values));
  } catch {
    // A full or blocked storage only loses the safety copy; the form itself is untouched.
  }
}

export function readFormDraft<V>(key: string): V | null {
  const raw = storage()?.getItem(PREFIX + key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as V;
  } catch {
    return null;
  }
}

export function clearFormDraft(key: string): void {
  storage()?.removeItem(PREFIX + key);
}

/** Keys (without the storage prefix) of the drafts that start with `prefix`. */
export function formDraftKeys(prefix: string): string[] {
  const store = storage();
  if (!store) return [];
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key?.startsWith(PREFIX + prefix)) keys.push(key.slice(PREFIX.length));
  }
  return keys;
}

/** Drops every draft under `prefix` (the user chose to leave the page and its changes). */
export function clearFormDrafts(prefix: string): void {
  for (const key of formDraftKeys(prefix)) clearFormDraft(key);
}
