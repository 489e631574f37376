import { lazy, Suspense } from 'react';
import type { NoteExtrasProps } from '../features/notes/windows/note-extras.js';
import { useFeatureFlag } from '../lib/feature-flags.js';

/** The recorder and its panels come with the first draft note that may use them. */
const NoteScribe = lazy(() => import('../features/scribe/components/note-scribe.js').then((m) => ({ default: m.NoteScribe })));

/**
 * The AI Copilot in a note window: on draft clinical notes when tidewell_copilot is on (spec shell §6),
 * and on any note a transcription wrote, so its evidence stays readable after signing.
 */
export function NoteScribeSlot(props: NoteExtrasProps) {
  const copilot = useFeatureFlag('tidewell_copilot');
  const draftNote = props.note.noteType === 'NOTE' && props.note.status === 'DRAFT';
  if (!(copilot && draftNote) && !props.note.data.transcriptionId) return null;
  return (
    <Suspense fallback={null}>
      <NoteScribe {...props} />
    </Suspense>
  );
}
