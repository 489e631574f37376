import { DEFAULT_TIMELINE_NOTE_TYPES, DEFAULT_TIMELINE_STATUSES } from '../../shared/notes/note-constants.js';
import type { NotesPage, NotesPageQuery } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { getNote } from '../data/notes/note-repository.js';
import { readTimelinePage } from '../data/notes/timeline-page.js';

/**
 * GET /v2/notes: the patient timeline, newest first, defaults NOTE + SIGNED/ADDENDED, pages of 50.
 * DELETED notes are never listed unless asked for by status. A page reads the patient's notes up
 * to itself, not all of them: `total` is given once the read reached the last matching note, and
 * `hasMore` says whether a next page exists.
 */
export async function notesPage(auth: AuthContext, q: NotesPageQuery): Promise<NotesPage> {
  const types = q.noteTypes?.length ? q.noteTypes : DEFAULT_TIMELINE_NOTE_TYPES;
  const statuses = q.statuses?.length ? q.statuses : DEFAULT_TIMELINE_STATUSES;
  const read = await readTimelinePage(auth.practiceId, q.patientId, { types, statuses, offset: q.offset, limit: q.limit });
  const page: NotesPage = {
    notes: read.notes,
    hasMore: read.hasMore,
    ...(read.total === undefined ? {} : { total: read.total }),
    offset: q.offset,
    limit: q.limit,
  };
  if (q.currentNoteId && !read.notes.some((n) => n.noteId === q.currentNoteId)) {
    // The open note, when the page does not hold it (filtered out, or on another page).
    const current = await getNote(auth.practiceId, q.currentNoteId);
    if (current && current.patientId === q.patientId && current.status !== 'DELETED') page.currentNote = current;
  }
  await writeAudit(auth, { action: 'list', entity: 'NOTE', patientId: q.patientId, count: read.notes.length + (page.currentNote ? 1 : 0) });
  return page;
}
