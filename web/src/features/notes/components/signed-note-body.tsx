import type { Note } from '../../../../../shared/notes/note-schema.js';
import { NoteEditor } from '../editor/note-editor.js';
import { formatDateTime } from './note-header.js';

/** A signed note reads as it was signed, then its addenda in order. */
export function NoteAddenda({ note }: { note: Note }) {
  const addenda = note.data.addenda ?? [];
  if (addenda.length === 0) return null;
  return (
    <section className="tw-note-addenda" aria-label="Addenda">
      {addenda.map((addendum, index) => (
        <article key={`${addendum.timestamp}-${index}`} className="tw-note-addendum">
          <header className="tw-note-addendum__meta">
            Addendum · {addendum.author.name} · {formatDateTime(addendum.timestamp)}
          </header>
          <NoteEditor ariaLabel={`Addendum ${index + 1}`} initialHtml={addendum.formattedText || addendum.text} onChange={() => undefined} readOnly compact />
        </article>
      ))}
    </section>
  );
}
