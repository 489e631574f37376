import { DEFAULT_TIMELINE_NOTE_TYPES, DEFAULT_TIMELINE_STATUSES } from '../../shared/notes/note-constants.js';
import type { Note, NotesPage, NotesPageQuery } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { assertNotDeleted, auditNote } from '../core/notes/note-common.js';
import { getNote, listPatientNotes, listPatientNotesButTexts, requireNote } from '../data/notes/note-repository.js';

/** GET /v1/notes/{noteId} */
export async function getNoteById(auth: AuthContext, noteId: string): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  await auditNote(auth, 'read', note);
  return note;
}

/**
 * The notes a timeline filter can show, newest first. Texts are most of a patient's notes (each
 * conversation's every text), so a filter without them reads the chart-notes index, which leaves
 * them out; one with texts reads every note of the patient.
 */
function timelineNotes(practiceId: string, patientId: string, types: readonly string[]): Promise<Note[]> {
  return types.includes('SMS') ? listPatientNotes(practiceId, patientId, { newestFirst: true }) : listPatientNotesButTexts(practiceId, patientId);
}

/**
 * GET /v2/notes: the patient timeline, newest first, defaults NOTE + SIGNED/ADDENDED, pages of 50.
 * DELETED notes are never listed unless asked for by status.
 */
export async function notesPage(auth: AuthContext, q: NotesPageQuery): Promise<NotesPage> {
  const types = q.noteTypes?.length ? q.noteTypes : DEFAULT_TIMELINE_NOTE_TYPES;
  const statuses = q.statuses?.length ? q.statuses : DEFAULT_TIMELINE_STATUSES;
  const all = await timelineNotes(auth.practiceId, q.patientId, types);
  const matching = all.filter((n) => types.includes(n.noteType) && statuses.includes(n.status));
  const notes = matching.slice(q.offset, q.offset + q.limit);
  const page: NotesPage = { notes, total: matching.length, offset: q.offset, limit: q.limit };
  if (q.currentNoteId && !notes.some((n) => n.noteId === q.currentNoteId)) {
    // The open note, when the page does not hold it: a text is not among the notes read without texts.
    const current = all.find((n) => n.noteId === q.currentNoteId) ?? (await getNote(auth.practiceId, q.currentNoteId));
    if (current && current.patientId === q.patientId && current.status !== 'DELETED') page.currentNote = current;
  }
  await writeAudit(auth, { action: 'list', entity: 'NOTE', patientId: q.patientId, count: notes.length + (page.currentNote ? 1 : 0) });
  return page;
}
