import { lazy, Suspense } from 'react';
import { Spinner } from '../../../components/ui/spinner.js';
import './note-window-layer.css';
import { EPrescribeReviewHost } from './eprescribe-review-host.js';
import { useNoteWindows } from './note-windows-context.js';

/**
 * The windows and their editor (TipTap/ProseMirror, the largest part of the app) are fetched when
 * the first note opens, so screens without a note never download them.
 */
const NoteWindowStack = lazy(() => import('./note-window-stack.js').then((m) => ({ default: m.NoteWindowStack })));

/** The note windows over every route (nothing while no note is open), and the before-e-prescribing step. */
export function NoteWindowLayer() {
  const { windows } = useNoteWindows();
  if (windows.length === 0) return <EPrescribeReviewHost />;
  return (
    <>
      <EPrescribeReviewHost />
      <Suspense
        fallback={
          <div className="tw-note-layer-loading">
            <Spinner label="Opening the note editor" />
          </div>
        }
      >
        <NoteWindowStack />
      </Suspense>
    </>
  );
}
