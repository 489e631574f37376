import { Button } from '../../../components/ui/button.js';
import type { SaveState } from '../lib/use-note-draft.js';

const timeOf = (at: Date) => at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

function textOf(state: SaveState): string {
  switch (state.kind) {
    case 'saving':
      return 'Saving…';
    case 'saved':
      return `Saved ${timeOf(state.at)}`;
    case 'dirty':
      return 'Unsaved changes';
    case 'blocked':
    case 'error':
      return state.message;
    case 'clean':
      return '';
  }
}

/**
 * The note window's save state beside its buttons, announced politely (an error as an alert).
 * Spec notes §2: an error shows its text with a Reload button when a retry exists.
 */
export function NoteSaveStatus({ state, onReload, reloading }: { state: SaveState; onReload: () => void; reloading: boolean }) {
  const tone = state.kind === 'error' ? 'error' : state.kind === 'blocked' ? 'warning' : 'muted';
  return (
    <>
      <p className={`tw-note-save-state tw-note-save-state--${tone}`} role={state.kind === 'error' ? 'alert' : 'status'} aria-live="polite">
        {textOf(state)}
      </p>
      {state.kind === 'error' && state.stale ? (
        <Button size="sm" className="tw-note-save-state__reload" onPress={onReload} isPending={reloading}>
          Reload
        </Button>
      ) : null}
    </>
  );
}
