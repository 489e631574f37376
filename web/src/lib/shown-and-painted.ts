/**
 * Resolves once the browser has shown what React has committed: a frame's callbacks run just
 * before it paints, and the next frame's once the painted one is on screen.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
}

/**
 * A part of a screen that waits until another part is on screen: `shown` is called once that part
 * has committed what it waited for; `painted` resolves when the browser has shown it, or `waitMs`
 * after `answered` if it never says so (its code failed to load), so the waiting part never hangs.
 */
export function shownAndPainted(answered: Promise<unknown>, waitMs: number): { shown: () => void; painted: Promise<void> } {
  let shown: () => void = () => undefined;
  const said = new Promise<void>((resolve) => (shown = resolve));
  const givenUp = answered.then(() => new Promise<void>((resolve) => setTimeout(resolve, waitMs)));
  return { shown, painted: Promise.race([said.then(afterNextPaint), givenUp]) };
}
