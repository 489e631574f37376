import { isLockable, NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { ChangePatientBody, Note, VersionOnlyBody } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { draftRemoved } from './draft-notifications.js';
import { auditNote, requirePatient } from './note-common.js';
import { updateNote } from './note-repository.js';

/** POST /v1/notes/{noteId}/change-patient: moves the note to another chart (an email's To follows the patient). */
export async function changeNotePatient(auth: AuthContext, noteId: string, body: ChangePatientBody, now = new Date()): Promise<Note> {
  const { previous, saved } = await updateNote(
    auth.practiceId,
    noteId,
    body.noteVersion,
    async (note) => {
      const patient = await requirePatient(auth.practiceId, body.patientId);
      const data = note.noteType === 'EMAIL' && note.status !== 'SENT' ? { ...note.data, to: patient.email ?? '' } : note.data;
      return { patientId: patient.id, data };
    },
    { now },
  );
  if (previous.patientId && previous.patientId !== saved.patientId) await auditNote(auth, 'update', previous);
  await auditNote(auth, 'update', saved);
  return saved;
}

/** POST /v1/notes/{noteId}/toggle-access: lock (hide from the patient portal) or unlock. */
export async function toggleNoteAccess(auth: AuthContext, noteId: string, body: VersionOnlyBody, now = new Date()): Promise<Note> {
  const { saved } = await updateNote(
    auth.practiceId,
    noteId,
    body.noteVersion,
    (note) => {
      if (!isLockable(note.noteType)) throw new ValidationError(NOTE_MESSAGES.notLockable);
      return { hidden: !note.hidden };
    },
    { now },
  );
  await auditNote(auth, 'update', saved);
  return saved;
}

/**
 * DELETE /v1/notes/{noteId}: the note becomes DELETED (kept for the record, left out of every
 * listing) and its open draft notification is deleted. A given noteVersion must be current.
 */
export async function deleteNote(auth: AuthContext, noteId: string, seenVersion: number | undefined, now = new Date()): Promise<Note> {
  const { saved } = await updateNote(auth.practiceId, noteId, seenVersion, () => ({ status: 'DELETED' }), { now });
  await auditNote(auth, 'delete', saved);
  await draftRemoved(auth, saved);
  return saved;
}
