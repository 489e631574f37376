import { useEffect, type RefObject } from 'react';
import { focusIsLost } from '../../lib/focus.js';

/**
 * The button just pressed often leaves with the state it ended (Start → Pause, Stop → Next): the
 * keyboard user lands on the panel's first action instead of the top of the page.
 */
export function useKeepFocus(ref: RefObject<HTMLElement | null>, step: unknown): void {
  useEffect(() => {
    // After the press finished and the new buttons are in place.
    const frame = requestAnimationFrame(() => {
      if (!focusIsLost() || !ref.current) return;
      const target = ref.current.querySelector<HTMLElement>('button:not([disabled]), input, [tabindex="-1"]');
      target?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [ref, step]);
}
