import { paths } from '../../lib/paths.js';

/**
 * The top bar's product switcher (spec shell §2.3): this clinical workspace, and the core product
 * it goes to. The core product opens at its own entry point (spec shell §2.1 /reports).
 */
export const PRODUCTS: readonly { id: string; label: string; href: string; current: boolean }[] = [
  { id: 'clinical', label: 'Tidewell Clinical', href: paths.home(), current: true },
  { id: 'core', label: 'Tidewell Core', href: paths.coreProduct(), current: false },
];
