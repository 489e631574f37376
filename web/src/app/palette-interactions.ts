import { useMemo } from 'react';
import type { PaletteInteraction } from '../features/palette/palette-actions.js';
import { useNewNoteInteractions } from '../features/notes/windows/use-new-note-interactions.js';
import { useCopilotInteraction } from '../features/copilot/use-copilot-interaction.js';

/** What the palette offers under 'New Interaction' (spec shell §2.6): the notes feature's note types, then Copilot when enabled. */
export function usePaletteInteractions(): readonly PaletteInteraction[] {
  const notes = useNewNoteInteractions();
  const copilot = useCopilotInteraction();
  return useMemo(() => (copilot ? [...notes, copilot] : notes), [notes, copilot]);
}
