/**
 * Typed-but-unsaved form values kept in this tab's session storage, so they outlive the screen
 * that holds the form. The router cannot hold back every navigation: a URL typed into the address
 * bar of a hash-routed app (and Back in some browsers) changes the screen without asking, and the
 * form's text would go with it. The form starts from its draft when it opens again.
 *
 * The values are patient data: they go at sign-out and when another user signs in in this tab, so
 * nobody who uses the browser next finds them (docs/browser-storage.md).
 */
const PREFIX = 'tw-form-draft:';
const OWNER = 'tw-form-draft-owner';

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

/** Sign-out: nothing typed stays behind for whoever uses the browser next. */
export function clearAllFormDrafts(): void {
  clearFormDrafts('');
  storage()?.removeItem(OWNER);
}

/**
 * The signed-in user is known: drafts typed by someone else are dropped, never shown; the same
 * user signing in again (an expired session renewed mid-visit) keeps theirs.
 */
export function claimFormDrafts(userId: string): void {
  const store = storage();
  if (!store) return;
  const owner = store.getItem(OWNER);
  if (owner !== null && owner !== userId) clearFormDrafts('');
  try {
    store.setItem(OWNER, userId);
  } catch {
    // Without storage there are no drafts to guard.
  }
}
