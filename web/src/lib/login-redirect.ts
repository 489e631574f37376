/**
 * Spec shell §2.4: when unauthenticated the current URL is saved; after sign-in the app goes back
 * there ('/home' if empty) and clears it. Session storage keeps it per tab.
 */
const KEY = 'tidewell.loginRedirect';
export const DEFAULT_AFTER_LOGIN = '/home';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The app path of a location hash: '#/patients/1?x=2' → '/patients/1?x=2'. */
export function pathFromHash(hash: string): string {
  const path = hash.replace(/^#/, '');
  return path === '' || path === '/' ? '' : path;
}

export function saveLoginRedirect(hash: string, store: KeyValueStore = sessionStorage): void {
  store.setItem(KEY, pathFromHash(hash));
}

/** Returns where to go after sign-in, or null when nothing was saved (a session that was already signed in). */
export function takeLoginRedirect(store: KeyValueStore = sessionStorage): string | null {
  const saved = store.getItem(KEY);
  if (saved === null) return null;
  store.removeItem(KEY);
  return saved || DEFAULT_AFTER_LOGIN;
}

/**
 * A provider's OAuth redirect comes back to a real path (`/google-callback?code=…`), which the
 * static host answers with the app; the app routes by hash, so the path and its query move into
 * the hash ('#/google-callback?code=…'). Returns the new address, or null when there is nothing to move.
 */
export function hashForCallbackPath(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string | null {
  if (location.pathname !== '/google-callback' || location.hash) return null;
  return `/#/google-callback${location.search}`;
}
