/**
 * Logout is synchronised across tabs (spec shell §2.3): the tab that logs out announces it, the
 * others sign out too. BroadcastChannel where available, otherwise a storage event.
 */
const CHANNEL = 'tidewell.session';
const STORAGE_KEY = 'tidewell.logoutAt';

/**
 * A BroadcastChannel message reaches every other channel object of the origin, the announcing
 * tab's own listener included. That tab is already signing out in order (the API first, then
 * Cognito everywhere); a second, local sign-out racing it would show the sign-in screen before the
 * first finished, and the late global sign-out would then end the next user's session.
 */
const THIS_TAB = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : String(Math.random());

interface LogoutMessage {
  type?: string;
  from?: string;
}

export function announceLogout(): void {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage({ type: 'logout', from: THIS_TAB } satisfies LogoutMessage);
    channel.close();
  } else {
    // A storage event fires in the other tabs only.
    localStorage.setItem(STORAGE_KEY, String(Date.now()));
  }
}

export function onLogoutElsewhere(handler: () => void): () => void {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event: MessageEvent<LogoutMessage>) => {
      if (event.data?.type === 'logout' && event.data.from !== THIS_TAB) handler();
    };
    return () => channel.close();
  }
  const listener = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) handler();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
