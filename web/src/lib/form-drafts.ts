/**
 * Typed-but-unsaved form values kept for this page's life, so they outlive the screen that holds
 * the form. The router cannot hold back every navigation: a URL typed into the address bar of a
 * hash-routed app (and Back in some browsers) changes the screen without asking, and the form's
 * text would go with it. The form starts from its draft when it opens again.
 *
 * The values are patient data, so they stay in this page's memory only: never in sessionStorage
 * (which a browser's session restore brings back after a restart) or any other storage. They go
 * at sign-out and when another user signs in (docs/browser-storage.md).
 */
const drafts = new Map<string, string>();
let owner: string | null = null;

export function saveFormDraft(key: string, values: unknown): void {
  drafts.set(key, JSON.stringify(values));
}

export function readFormDraft<V>(key: string): V | null {
  const raw = drafts.get(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as V;
  } catch {
    return null;
  }
}

export function clearFormDraft(key: string): void {
  drafts.delete(key);
}

/** Keys of the drafts that start with `prefix`. */
export function formDraftKeys(prefix: string): string[] {
  return [...drafts.keys()].filter((key) => key.startsWith(prefix));
}

/** Drops every draft under `prefix` (the user chose to leave the page and its changes). */
export function clearFormDrafts(prefix: string): void {
  for (const key of formDraftKeys(prefix)) clearFormDraft(key);
}

/** Sign-out: nothing typed stays behind for whoever uses the browser next. */
export function clearAllFormDrafts(): void {
  drafts.clear();
  owner = null;
}

/**
 * The signed-in user is known: drafts typed by someone else are dropped, never shown; the same
 * user signing in again (an expired session renewed mid-visit) keeps theirs.
 */
export function claimFormDrafts(userId: string): void {
  if (owner !== null && owner !== userId) drafts.clear();
  owner = userId;
}
