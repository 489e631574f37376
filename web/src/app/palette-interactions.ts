import type { PaletteInteraction } from '../features/palette/palette-actions.js';

/**
 * The note types the palette offers under 'New Interaction' (spec shell §2.6). The notes feature
 * returns its creatable types from a hook composed here; until it does, the entry stays hidden.
 */
export function usePaletteInteractions(): readonly PaletteInteraction[] {
  return NO_INTERACTIONS;
}

const NO_INTERACTIONS: readonly PaletteInteraction[] = [];
