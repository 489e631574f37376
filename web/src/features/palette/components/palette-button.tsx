import { useEffect } from 'react';
import { Button } from '../../../components/ui/button.js';
import { SearchIcon } from '../../../components/ui/icons.js';

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** 'Cmd K' on Apple keyboards, 'Ctrl K' elsewhere (spec shell §2.6). */
export function shortcutLabel(): string {
  return isMac() ? '⌘K' : 'Ctrl K';
}

export function PaletteButton({ onPress }: { onPress: () => void }) {
  return (
    <Button variant="secondary" size="sm" className="tw-palette-button" onPress={onPress} aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'}>
      <SearchIcon />
      <span className="tw-palette-button__text">Search</span>
      <kbd className="tw-palette-button__kbd">{shortcutLabel()}</kbd>
    </Button>
  );
}

/** Cmd+K / Ctrl+K toggles the palette from anywhere in the workspace. */
export function usePaletteShortcut(toggle: () => void) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'k' || event.altKey || event.shiftKey) return;
      if (!(event.metaKey || event.ctrlKey)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);
}
