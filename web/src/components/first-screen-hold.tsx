import { useEffect } from 'react';
import { holdFirstScreen } from '../lib/after-first-screen.js';

/** Rendered beside a first screen's loading state (a widget whose code is on its way): the screen has not settled while it shows. */
export function FirstScreenHold() {
  useEffect(() => holdFirstScreen(), []);
  return null;
}
