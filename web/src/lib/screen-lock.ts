import { useSyncExternalStore } from 'react';

/**
 * Automatic logoff (HIPAA 164.312(a)(2)(iii)): after the practice's idle time the screen locks.
 * The app stays mounted under the lock (open note windows, typed text and a recording in progress
 * all go on) while nothing of it shows until the same user signs in again.
 *
 * The lock is kept in localStorage (no patient data: only when and after how many minutes), so a
 * reload or another tab of the app opens locked as well, and unlocking in one tab unlocks them all.
 */
const STORAGE_KEY = 'tidewell.screenLock';

/** The lock's own layer carries this attribute; every other layer of the page hides behind it. */
export const SCREEN_LOCK_ATTRIBUTE = 'data-screen-lock';

export interface ScreenLock {
  /** The idle minutes that locked it, for the lock's words. */
  minutes: number;
  at: number;
}

let current: ScreenLock | null = readStored();
const listeners = new Set<() => void>();

function readStored(): ScreenLock | null {
  try {
    const raw = typeof window === 'undefined' ? null : window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<ScreenLock>;
    return typeof parsed.minutes === 'number' && typeof parsed.at === 'number' ? { minutes: parsed.minutes, at: parsed.at } : null;
  } catch {
    return null;
  }
}

function set(next: ScreenLock | null, store: boolean) {
  current = next;
  if (store) {
    try {
      if (next) window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      else window.localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Without storage the lock still holds in this page.
    }
  }
  for (const listener of listeners) listener();
}

export function lockScreen(minutes: number): void {
  if (current) return;
  set({ minutes, at: Date.now() }, true);
}

export function unlockScreen(): void {
  if (!current) return;
  // Signing in again is activity: the idle time counts from now. Without it the timer that starts
  // on unlocking would count from the last activity before the lock, already past the limit, and
  // lock again at once. Written before the lock is removed, so other tabs unlocked by the storage
  // event also count from now.
  recordActivity(Date.now());
  set(null, true);
}

/** Sign-out: the next user starts unlocked, with no idle time counted. */
export function clearScreenLock(): void {
  set(null, true);
  try {
    window.localStorage.removeItem(ACTIVITY_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/**
 * The last time the user did something in any tab of the app. Kept across a browser restart, so
 * a session brought back by the browser after the idle time opens locked (the restored tab's
 * unsaved chart-form text included, docs/browser-storage.md).
 */
const ACTIVITY_KEY = 'tidewell.lastActivity';

export function recordActivity(at: number): void {
  try {
    window.localStorage.setItem(ACTIVITY_KEY, String(at));
  } catch {
    // Without storage each tab counts its own idle time.
  }
}

export function lastActivity(): number | null {
  try {
    const at = Number(window.localStorage.getItem(ACTIVITY_KEY));
    return Number.isFinite(at) && at > 0 ? at : null;
  } catch {
    return null;
  }
}

export function screenLock(): ScreenLock | null {
  return current;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY && event.key !== null) return;
    const stored = readStored();
    if ((stored === null) !== (current === null)) set(stored, false);
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useScreenLock(): ScreenLock | null {
  return useSyncExternalStore(subscribe, screenLock, () => null);
}

/**
 * Unlocking signs in again while the session's tokens are still there; Amplify refuses a sign-in
 * over a signed-in user, so for that one request the token store shows none (configure-amplify.ts).
 * API calls made meanwhile wait here for the tokens instead of going out without one.
 */
let verifying: Promise<void> | null = null;
/** Set once Amplify stores the new tokens: from then on it reads them back itself (getCurrentUser for its 'signedIn' notice). */
let newTokensStored = false;

/** Whether the token store must read as empty: only before a right password has brought new tokens. */
export function isVerifyingPassword(): boolean {
  return verifying !== null && !newTokensStored;
}

/** The token store was written: a password check in progress has succeeded and its tokens are the session's. */
export function tokensStored(): void {
  if (verifying) newTokensStored = true;
}

export async function whileVerifyingPassword<T>(run: () => Promise<T>): Promise<T> {
  let done!: () => void;
  const gate = new Promise<void>((resolve) => (done = resolve));
  verifying = gate;
  newTokensStored = false;
  try {
    return await run();
  } finally {
    verifying = null;
    newTokensStored = false;
    done();
  }
}

/** Resolves at once, or when a password check in progress has finished. */
export function tokensSettled(): Promise<void> {
  return verifying ?? Promise.resolve();
}
