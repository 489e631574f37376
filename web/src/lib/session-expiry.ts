import { useSyncExternalStore } from 'react';

/**
 * The session ended while a visit was being recorded (spec notes §2 session-expiry modal). Signing
 * out then would unmount the note window and the recorder with it, so instead the app keeps
 * running, the recorder keeps its chunks, and a modal asks the user to sign in again. Chunk
 * uploads wait on `sessionReady()` and go on once the session is back.
 */
let expired = false;
let waiters: Array<() => void> = [];
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

export function markSessionExpired(): void {
  if (expired) return;
  expired = true;
  notify();
}

export function clearSessionExpired(): void {
  if (!expired) return;
  expired = false;
  const release = waiters;
  waiters = [];
  for (const resolve of release) resolve();
  notify();
}

export function isSessionExpired(): boolean {
  return expired;
}

/** Resolves at once while the session holds, or when the user has signed in again. */
export function sessionReady(): Promise<void> {
  return expired ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSessionExpired(): boolean {
  return useSyncExternalStore(subscribe, isSessionExpired, () => false);
}
