import { createContext } from 'react';
import type { MenuBadgeCounts } from './menu-items.js';

/**
 * The menu badges' unread totals, provided by the app around the shell. Through context, a
 * count's answer re-renders the badges that read it, not the menu and top bar around them.
 */
export const MenuBadgeCountsContext = createContext<MenuBadgeCounts>({});
