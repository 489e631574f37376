import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { MAIN_ID, mainHeading } from '../../lib/focus.js';

/** How long a screen may take to show its heading (lazy code, then its data) before we give up. */
const HEADING_WAIT_MS = 8_000;
/** A closing popup (the palette) hands focus back to its trigger a frame or two after it goes. */
const SETTLE_MS = 400;
const POLL_MS = 50;
/** A heading that did not change is the new screen's after this long (a route that keeps its page). */
const STALE_HEADING_MS = 1_000;

/** Focus the user or the new screen put somewhere on purpose: inside main, or in a dialog or note window. */
function placedOnPurpose(active: Element | null, origin: Element | null): boolean {
  if (!active || active === document.body || !active.isConnected || active === origin) return false;
  return document.getElementById(MAIN_ID)?.contains(active) === true || active.closest('[role="dialog"], [role="alertdialog"]') !== null;
}

/**
 * After every route change (not the first screen: there the skip link is the first Tab stop),
 * focus moves to the new screen's h1, so keyboard and screen-reader users start where the new
 * content starts. Focus the new screen placed itself (an autofocused field) stays where it is.
 */
export function useRouteFocus(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  /** The heading of the screen being left, which may stay on show while the next one loads. */
  const previous = useRef<{ element: HTMLElement | null; text: string }>({ element: null, text: '' });
  const renderedPath = useRef(pathname);
  if (renderedPath.current !== pathname) {
    // Read while rendering the new location: the page still shows the screen being left.
    renderedPath.current = pathname;
    const heading = mainHeading();
    previous.current = { element: heading, text: heading?.textContent ?? '' };
  }

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return undefined;
    }
    const origin = document.activeElement;
    const left = previous.current;
    const isNew = (heading: HTMLElement) => heading !== left.element || heading.textContent !== left.text;
    const started = Date.now();
    let focusedAt = 0;
    const timer = window.setInterval(() => {
      const now = Date.now();
      const active = document.activeElement;
      const heading = mainHeading();
      if (focusedAt > 0) {
        if (now - focusedAt > SETTLE_MS) window.clearInterval(timer);
        else if (heading && active !== heading && !placedOnPurpose(active, origin)) heading.focus();
        return;
      }
      if (placedOnPurpose(active, origin) || now - started > HEADING_WAIT_MS) {
        window.clearInterval(timer);
        return;
      }
      if (!heading || (!isNew(heading) && now - started < STALE_HEADING_MS)) return;
      heading.focus();
      focusedAt = now;
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [pathname]);
}
