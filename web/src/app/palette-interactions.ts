import type { PaletteInteraction } from '../features/palette/palette-actions.js';
import { useNewNoteInteractions } from '../features/notes/windows/use-new-note-interactions.js';

/** The note types the palette offers under 'New Interaction' (spec shell §2.6), from the notes feature. */
export function usePaletteInteractions(): readonly PaletteInteraction[] {
  return useNewNoteInteractions();
}
