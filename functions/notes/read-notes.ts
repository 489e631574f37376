import { DEFAULT_TIMELINE_NOTE_TYPES, DEFAULT_TIMELINE_STATUSES } from '../../shared/notes/note-constants.js';
import type { Note, NotesListQuery, NotesPage, NotesPageQuery } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { assertNotDeleted, auditNote } from '../core/notes/note-common.js';
import { listPatientNotes, requireNote } from '../data/notes/note-repository.js';

/** GET /v1/notes/{noteId} */
export async function getNoteById(auth: AuthContext, noteId: string): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  await auditNote(auth, 'read', note);
  return note;
}

/**
 * GET /v2/notes: the patient timeline, newest first, defaults NOTE + SIGNED/ADDENDED, pages of 50.
 * DELETED notes are never listed unless asked for by status.
 */
export async function notesPage(auth: AuthContext, q: NotesPageQuery): Promise<NotesPage> {
  const types = q.noteTypes?.length ? q.noteTypes : DEFAULT_TIMELINE_NOTE_TYPES;
  const statuses = q.statuses?.length ? q.statuses : DEFAULT_TIMELINE_STATUSES;
  const all = await listPatientNotes(auth.practiceId, q.patientId, { newestFirst: true });
  const matching = all.filter((n) => types.includes(n.noteType) && statuses.includes(n.status));
  const notes = matching.slice(q.offset, q.offset + q.limit);
  const page: NotesPage = { notes, total: matching.length, offset: q.offset, limit: q.limit };
  if (q.currentNoteId && !notes.some((n) => n.noteId === q.currentNoteId)) {
    const current = all.find((n) => n.noteId === q.currentNoteId && n.status !== 'DELETED');
    if (current) page.currentNote = current;
  }
  await writeAudit(auth, { action: 'list', entity: 'NOTE', patientId: q.patientId, count: notes.length + (page.currentNote ? 1 : 0) });
  return page;
}

/**
 * GET /v1/notes?patientId&noteType  (e.g. VITALS history) and
 * GET /v1/notes?patientId&startDate&endDate&excludeFormattedText: oldest first by eventTimestamp.
 */
export async function listNotes(auth: AuthContext, q: NotesListQuery): Promise<{ notes: Note[] }> {
  const range = {
    ...(q.startDate ? { from: new Date(q.startDate).toISOString() } : {}),
    ...(q.endDate ? { to: endOf(q.endDate) } : {}),
  };
  let notes = (await listPatientNotes(auth.practiceId, q.patientId, range)).filter((n) => n.status !== 'DELETED');
  if (q.noteType) notes = notes.filter((n) => n.noteType === q.noteType);
  if (q.excludeFormattedText) notes = notes.map((n) => ({ ...n, data: withoutFormatted(n.data) }));
  await writeAudit(auth, { action: 'list', entity: 'NOTE', patientId: q.patientId, count: notes.length });
  return { notes };
}

/** A date-only end (YYYY-MM-DD) includes that whole day. */
function endOf(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T23:59:59.999Z`;
  return new Date(value).toISOString();
}

function withoutFormatted(data: Note['data']): Note['data'] {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { formattedText, ...rest } = data;
  return rest;
}
