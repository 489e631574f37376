import { useEffect, useState } from 'react';
import { afterFirstScreenSettles } from './after-first-screen.js';

/** False until the first screen is up, its answers are in and the browser has an idle moment; then true for good. */
export function useFirstScreenSettled(): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let live = true;
    void afterFirstScreenSettles().then(() => live && setSettled(true));
    return () => {
      live = false;
    };
  }, []);
  return settled;
}
