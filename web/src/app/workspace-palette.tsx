import { CommandPalette } from '../features/palette/components/command-palette.js';
import { RESOURCE_LINKS } from '../features/shell/resources.js';
import { usePaletteInteractions } from './palette-interactions.js';

const HELP_HREF = RESOURCE_LINKS.find((link) => link.id === 'help')?.href ?? RESOURCE_LINKS[0].href;

/** The command palette with what the other features offer in it; loaded when first opened. */
export function WorkspacePalette({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const interactions = usePaletteInteractions();
  return <CommandPalette isOpen={isOpen} onOpenChange={onOpenChange} helpHref={HELP_HREF} interactions={interactions} />;
}
