/**
 * Loads a lazy chunk, and if the browser was offline when it tried, tries again each time the
 * network comes back. A chunk that fails while online (a deploy replaced it) is a real failure and
 * is passed on. Stops waiting once `signal` aborts.
 */
export function importWhenOnline<T>(load: () => Promise<T>, signal: AbortSignal): Promise<T> {
  return load().catch((error: unknown) => {
    if (signal.aborted || typeof navigator === 'undefined' || navigator.onLine) throw error;
    return new Promise<T>((resolve, reject) => {
      const retry = () => {
        signal.removeEventListener('abort', stop);
        importWhenOnline(load, signal).then(resolve, reject);
      };
      const stop = () => {
        globalThis.removeEventListener('online', retry);
        reject(error);
      };
      globalThis.addEventListener('online', retry, { once: true });
      signal.addEventListener('abort', stop, { once: true });
    });
  });
}
