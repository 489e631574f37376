/**
 * For tests of renders that must yield: records what `read()` returns each time another task gets
 * a turn (as a paint or a tap would), until `stop()` returns the readings.
 */
export function watchTurnsBetweenTasks(read: () => number): { stop(): number[] } {
  const seen: number[] = [];
  let watching = true;
  const watch = () => {
    seen.push(read());
    if (watching) setTimeout(watch, 0);
  };
  setTimeout(watch, 0);
  return {
    stop() {
      watching = false;
      return seen;
    },
  };
}

/** A render's own work on a slow phone: keeps the main thread busy for `ms` milliseconds. */
export function keepMainThreadBusy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy, as a render of lists, dates and links is.
  }
}
