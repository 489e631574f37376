/** Pinned arrives as a boolean from the API; items written by older clients may carry 0/1. */
export function isPinned(item: { pinned?: unknown }): boolean {
  return item.pinned === true || item.pinned === 1;
}

/** The wire form of the pinned flag (spec §7: pinned is sent as 0 or 1). */
export function pinnedWire(pinned: boolean): 0 | 1 {
  return pinned ? 1 : 0;
}
