import { useCallback, useState } from 'react';
import { CommandPalette } from '../features/palette/components/command-palette.js';
import { PaletteButton, usePaletteShortcut } from '../features/palette/components/palette-button.js';
import { AppLayout } from '../features/shell/components/app-layout.js';
import { RESOURCE_LINKS } from '../features/shell/resources.js';
import { usePaletteInteractions } from './palette-interactions.js';

const HELP_HREF = RESOURCE_LINKS.find((link) => link.id === 'help')?.href ?? RESOURCE_LINKS[0].href;

/** The shell with the workspace around it: command palette, live notifications and menu badges. */
export function WorkspaceLayout() {
  const [paletteOpen, setPaletteOpen] = useState(false);
  const togglePalette = useCallback(() => setPaletteOpen((open) => !open), []);
  usePaletteShortcut(togglePalette);
  const interactions = usePaletteInteractions();

  return (
    <AppLayout search={<PaletteButton onPress={() => setPaletteOpen(true)} />}>
      <CommandPalette isOpen={paletteOpen} onOpenChange={setPaletteOpen} helpHref={HELP_HREF} interactions={interactions} />
    </AppLayout>
  );
}
