import { useSyncExternalStore } from 'react';

/** Touch screens: no hover and a coarse pointer, where double-click is not a gesture people use. */
export const TOUCH_MEDIA_QUERY = '(hover: none) and (pointer: coarse)';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export function useTouchScreen(): boolean {
  return useMediaQuery(TOUCH_MEDIA_QUERY);
}
