import { isLockable, isSignedStatus, NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { ChangePatientBody, Note, VersionOnlyBody } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, ValidationError } from '../lib/errors.js';
import { requirePermission } from '../lib/http/permissions.js';
import { draftRemoved } from './draft-notifications.js';
import { auditNote, requirePatient } from '../core/notes/note-common.js';
import { requireNote, updateNote, writeNextVersion } from '../data/notes/note-repository.js';
import { noteOwners } from './signed-note.js';

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

/** Notes whose chart medication goes and comes back with them (rx-delete.ts, loaded for these only: the cold start is at its budget). */
const isPrescription = (note: Note) => note.noteType === 'RX' || note.noteType === 'RX_DOSESPOT';

/**
 * DELETE /v1/notes/{noteId}: the note becomes DELETED (kept for the record, left out of every
 * listing) and its open draft notification is deleted. A given noteVersion must be current.
 * A prescription's chart medication is removed in the same transaction, so the medications card
 * never lists a medication whose prescription is gone.
 */
export async function deleteNote(auth: AuthContext, noteId: string, seenVersion: number | undefined, now = new Date()): Promise<Note> {
  const { saved } = await updateNote(auth.practiceId, noteId, seenVersion, (note) => ({ status: 'DELETED', deletedFrom: note.status }), {
    now,
    allowExternal: true,
    precheck: (note) => {
      if (isSignedStatus(note.status) || note.signed) requirePermission(auth, 'note.signed.delete', noteOwners(note));
    },
    write: (practiceId, current, changes, at) =>
      isPrescription(current)
        ? import('./rx-delete.js').then((m) => m.writeDeletedPrescription(auth, current, changes, at))
        : writeNextVersion(practiceId, current, changes, at),
  });
  await auditNote(auth, 'delete', saved);
  await draftRemoved(auth, saved);
  return saved;
}

/**
 * POST /v1/notes/{noteId}/restore (admins, see the permissions table): a deleted note returns to
 * the status it had when it was deleted, with the next version; the restore is audited.
 */
export async function restoreNote(auth: AuthContext, noteId: string, now = new Date()): Promise<Note> {
  const current = await requireNote(auth.practiceId, noteId);
  if (current.status !== 'DELETED') throw new ConflictError(NOTE_MESSAGES.notDeleted, { noteVersion: current.noteVersion });
  const changes = { status: current.deletedFrom ?? (current.signed ? 'SIGNED' : 'DRAFT'), deletedFrom: null };
  const saved = isPrescription(current)
    ? await import('./rx-delete.js').then((m) => m.writeRestoredPrescription(auth, current, changes, now))
    : await writeNextVersion(auth.practiceId, current, changes, now);
  await auditNote(auth, 'restore', saved);
  return saved;
}
