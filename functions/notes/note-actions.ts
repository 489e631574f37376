import { isLockable, NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { ChangePatientBody, Note, VersionOnlyBody } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { draftRemoved } from './draft-notifications.js';
import { assertNotDeleted, assertVersion, auditNote, nextVersion, requirePatient } from './note-common.js';
import { replaceNote, requireNote } from './note-repository.js';

/** POST /v1/notes/{noteId}/change-patient: moves the note to another chart (an email's To follows the patient). */
export async function changeNotePatient(auth: AuthContext, noteId: string, body: ChangePatientBody, now = new Date()): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  assertVersion(note, body.noteVersion);
  const patient = await requirePatient(auth.practiceId, body.patientId);
  const data = note.noteType === 'EMAIL' && note.status !== 'SENT' ? { ...note.data, to: patient.email ?? '' } : note.data;
  const saved = await replaceNote(auth.practiceId, nextVersion(note, { patientId: patient.id, data }, now), body.noteVersion);
  if (note.patientId && note.patientId !== patient.id) await auditNote(auth, 'update', note);
  await auditNote(auth, 'update', saved);
  return saved;
}

/** POST /v1/notes/{noteId}/toggle-access: lock (hide from the patient portal) or unlock. */
export async function toggleNoteAccess(auth: AuthContext, noteId: string, body: VersionOnlyBody, now = new Date()): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  assertVersion(note, body.noteVersion);
  if (!isLockable(note.noteType)) throw new ValidationError(NOTE_MESSAGES.notLockable);
  const saved = await replaceNote(auth.practiceId, nextVersion(note, { hidden: !note.hidden }, now), body.noteVersion);
  await auditNote(auth, 'update', saved);
  return saved;
}

/**
 * DELETE /v1/notes/{noteId}: the note becomes DELETED (kept for the record, left out of every
 * listing) and its open draft notification is deleted. A given noteVersion must be current.
 */
export async function deleteNote(auth: AuthContext, noteId: string, seenVersion: number | undefined, now = new Date()): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  if (seenVersion !== undefined) assertVersion(note, seenVersion);
  const saved = await replaceNote(auth.practiceId, nextVersion(note, { status: 'DELETED' }, now), note.noteVersion);
  await auditNote(auth, 'delete', saved);
  await draftRemoved(auth, saved);
  return saved;
}
