import { useState } from 'react';
import type { LabNoteData } from '../../../../../shared/labs/lab-schema.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { paths } from '../../../lib/paths.js';
import { ImportedLabView } from './lab/imported-lab-view.js';
import { LabOrderDetails } from './lab/lab-order-details.js';
import { LabOrderForm } from './lab/lab-order-form.js';

/** A LAB note (spec notes §2–§9): the order form, then the order's status and the lab's results. */
export default function LabNoteView({ note, editable }: { note: Note; editable: boolean }) {
  const data = note.data as LabNoteData;
  // Kept here: the ordered note replaces the form's, and the result screen must stay until it closes the window.
  const [submitted, setSubmitted] = useState(false);
  if (submitted) {
    // The practice's note-result screen: 'Order submitted!', then it asks this window to close.
    return <iframe className="tw-lab-result-frame" title="Lab order result" src={`/#${paths.noteResult(note.noteId, { type: 'lab' })}`} />;
  }
  // An imported report was never ordered here: it is a record of results, with nothing to order or wait for.
  if (data.source === 'import') return <ImportedLabView note={note} />;
  if (!data.hgId) return <LabOrderForm note={note} editable={editable} onSubmitted={() => setSubmitted(true)} />;
  return <LabOrderDetails note={note} />;
}
