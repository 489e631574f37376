import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useBlocker, type Blocker } from 'react-router-dom';

/** Spec chart-data §2 and §8, word for word. */
export const UNSAVED_CHANGES_MESSAGE = 'You have unsaved changes, are you sure you want to leave?';

/**
 * Forms report their dirty state under a key (the allergy form under `allergies`); the page is
 * guarded while any key is dirty. A registry rather than a context so that a form in a modal,
 * rendered outside the page's tree, reports the same way.
 */
const dirtyKeys = new Set<string>();
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

export function setUnsavedChanges(key: string, dirty: boolean): void {
  if (dirty === dirtyKeys.has(key)) return;
  if (dirty) dirtyKeys.add(key);
  else dirtyKeys.delete(key);
  notify();
}

export function hasUnsavedChanges(): boolean {
  return dirtyKeys.size > 0;
}

export function unsavedChangeKeys(): string[] {
  return [...dirtyKeys];
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Registers a form's dirty state under `key`; the key is released when the form unmounts. */
export function useUnsavedChangesGuard(key: string, dirty: boolean): void {
  useEffect(() => {
    setUnsavedChanges(key, dirty);
  }, [key, dirty]);
  useEffect(() => () => setUnsavedChanges(key, false), [key]);
}

export function useHasUnsavedChanges(): boolean {
  return useSyncExternalStore(subscribe, hasUnsavedChanges, hasUnsavedChanges);
}

/**
 * Mounted once per screen that hosts guarded forms: blocks in-app navigation while anything is
 * dirty (the caller renders the question from the returned blocker) and asks the browser to
 * confirm closing or reloading the tab. A router allows a single blocker, hence one mount point.
 */
export function useUnsavedChangesBlocker(): Blocker {
  const dirty = useHasUnsavedChanges();
  const shouldBlock = useCallback(
    ({ currentLocation, nextLocation }: { currentLocation: { pathname: string }; nextLocation: { pathname: string } }) =>
      hasUnsavedChanges() && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useBeforeUnloadPrompt(dirty);

  return blocker;
}

/** While `active`, closing or reloading the tab asks first (the browser's own question). */
export function useBeforeUnloadPrompt(active: boolean): void {
  useEffect(() => {
    if (!active) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show (or at least require) a return value; modern ones show their own text.
      event.returnValue = UNSAVED_CHANGES_MESSAGE;
      return UNSAVED_CHANGES_MESSAGE;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}
