export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Runs a pending call now (on blur, close or before signing). */
  flush(): void;
  cancel(): void;
  isPending(): boolean;
}

/**
 * Trailing debounce that still fires at least every `maxWaitMs` while calls keep coming, so a
 * user who types without pausing is saved anyway (spec notes §9: editor 350 ms / 3 s, draft
 * autosave 5 s / 30 s).
 */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, waitMs: number, maxWaitMs: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstCallAt: number | undefined;
  let lastArgs: A | undefined;

  const run = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    firstCallAt = undefined;
    const args = lastArgs;
    lastArgs = undefined;
    if (args) fn(...args);
  };

  const debounced = ((...args: A) => {
    lastArgs = args;
    const now = Date.now();
    firstCallAt ??= now;
    if (timer !== undefined) clearTimeout(timer);
    const untilMax = firstCallAt + maxWaitMs - now;
    timer = setTimeout(run, Math.max(0, Math.min(waitMs, untilMax)));
  }) as Debounced<A>;

  debounced.flush = () => {
    if (lastArgs) run();
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    firstCallAt = undefined;
    lastArgs = undefined;
  };
  debounced.isPending = () => lastArgs !== undefined;
  return debounced;
}
