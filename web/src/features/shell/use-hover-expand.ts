import { useCallback, useEffect, useRef, useState } from 'react';

/** Expands after the pointer has rested `delayMs` on the element; collapses as soon as it leaves. */
export function useHoverExpand(delayMs: number) {
  const [expanded, setExpanded] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const onPointerEnter = useCallback(() => {
    cancel();
    timer.current = setTimeout(() => setExpanded(true), delayMs);
  }, [cancel, delayMs]);

  const onPointerLeave = useCallback(() => {
    cancel();
    setExpanded(false);
  }, [cancel]);

  const collapse = useCallback(() => {
    cancel();
    setExpanded(false);
  }, [cancel]);

  useEffect(() => cancel, [cancel]);

  return { expanded, collapse, hoverProps: { onPointerEnter, onPointerLeave } };
}
