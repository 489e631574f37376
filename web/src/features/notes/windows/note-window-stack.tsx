import { Button as AriaButton } from 'react-aria-components';
import { NOTE_LAYOUT } from '../../../../../shared/notes/note-constants.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { CloseIcon } from '../../../components/ui/icons.js';
import { useMediaQuery } from '../../../lib/use-media-query.js';
import { NoteTypeIcon, RestoreIcon } from '../components/note-icons.js';
import { NOTE_TYPE_LABEL } from '../note-types.js';
import '../notes.css';
import { NoteWindow } from './note-window.js';
import { useNoteWindows } from './note-windows-context.js';

/** Spec chart-data §8 wording for leaving unsaved changes. */
export const UNSAVED_NOTE_MESSAGE = 'You have unsaved changes, are you sure you want to leave?';

/**
 * The floating note windows over whatever screen is showing, side by side from the right, with the
 * tray of minimized notes. Minimized windows stay mounted (hidden) so their unsaved text survives.
 */
export function NoteWindowStack() {
  const windows = useNoteWindows();
  const mobile = useMediaQuery(`(max-width: ${NOTE_LAYOUT.mobileBreakpointPx}px)`);
  const minimized = windows.windows.filter((w) => w.stage === 'minimized');
  const closingEntry = windows.windows.find((w) => w.noteId === windows.closing);

  if (windows.windows.length === 0) return null;
  return (
    <>
      <div
        className="tw-note-layer"
        style={{
          ['--tw-note-width' as string]: `calc(100vw / ${NOTE_LAYOUT.windowWidthDivisor})`,
          ['--tw-note-height' as string]: `calc(100vh / ${NOTE_LAYOUT.windowHeightDivisor})`,
        }}
        data-tray={minimized.length > 0 ? 'true' : undefined}
      >
        {windows.windows.map((entry) => (
          <NoteWindow key={entry.noteId} entry={entry} mobile={mobile} />
        ))}
      </div>
      {minimized.length > 0 ? (
        <nav className="tw-note-tray" aria-label="Minimized notes">
          {minimized.map((entry) => {
            const label = `${NOTE_TYPE_LABEL[entry.noteType]}${entry.patientName ? ` · ${entry.patientName}` : ''}`;
            return (
              <div key={entry.noteId} className="tw-note-tray__item">
                <NoteTypeIcon type={entry.noteType} />
                <span className="tw-note-tray__label">{label}</span>
                {entry.dirty ? <span className="tw-note-tray__dirty" title="Unsaved changes" aria-label="Unsaved changes" /> : null}
                <AriaButton className="tw-icon-button" aria-label={`Restore ${label}`} onPress={() => windows.setStage(entry.noteId, 'default')}>
                  <RestoreIcon />
                </AriaButton>
                <AriaButton className="tw-icon-button" aria-label={`Close ${label}`} onPress={() => windows.requestClose(entry.noteId)}>
                  <CloseIcon />
                </AriaButton>
              </div>
            );
          })}
        </nav>
      ) : null}
      <ConfirmDialog
        isOpen={Boolean(closingEntry)}
        onOpenChange={(open) => {
          if (!open) windows.cancelClose();
        }}
        title="Close note?"
        confirmLabel="Close without saving"
        tone="danger"
        onConfirm={() => closingEntry && windows.close(closingEntry.noteId)}
      >
        {UNSAVED_NOTE_MESSAGE}
      </ConfirmDialog>
    </>
  );
}
