/** Spec shell §2.2 / §9: the side menu's widths, hover delay and animation, and the mobile breakpoint. */
export const SIDEBAR = {
  miniWidth: 60,
  expandedWidth: 270,
  hoverDelayMs: 300,
  animationMs: 300,
} as const;

/** Below this width the menu is an overlay (spec shell §9: 768 px outside the note window). */
export const MOBILE_BREAKPOINT_PX = 768;
export const MOBILE_MEDIA_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;
