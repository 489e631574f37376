/**
 * Logout is synchronised across tabs (spec shell §2.3): the tab that logs out announces it, the
 * others sign out too. BroadcastChannel where available, otherwise a storage event.
 */
const CHANNEL = 'tidewell.session';
const STORAGE_KEY = 'tidewell.logoutAt';

export function announceLogout(): void {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage({ type: 'logout' });
    channel.close();
  } else {
    localStorage.setItem(STORAGE_KEY, String(Date.now()));
  }
}

export function onLogoutElsewhere(handler: () => void): () => void {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event: MessageEvent<{ type?: string }>) => {
      if (event.data?.type === 'logout') handler();
    };
    return () => channel.close();
  }
  const listener = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) handler();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
