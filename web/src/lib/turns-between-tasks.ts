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
