/** Where every screen renders (the shell's <main id="main">). */
export const MAIN_ID = 'main';

/** The heading of the screen now showing, made focusable from script only (tabIndex -1). */
export function mainHeading(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>(`#${MAIN_ID} h1`);
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}

/** Puts focus on the screen's heading, or on main while the screen has none yet. */
export function focusMain(): void {
  const target = mainHeading() ?? document.getElementById(MAIN_ID);
  if (!target) return;
  if (target.id === MAIN_ID && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}

/** Focus is nowhere in particular: on the body, or on an element that has left the page. */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}
