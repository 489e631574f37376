import { isEditableStatus, isSignedStatus, NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import { statusAfterSave, statusAfterSign } from '../../shared/notes/note-rules.js';
import type { Note, SignNoteBody, UpdateNoteBody } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { draftSaved, draftSigned } from './draft-notifications.js';
import { assertNotDeleted, assertSavable, assertVersion, auditNote, nextVersion, normalizeData, personOf } from './note-common.js';
import { replaceNote, requireNote } from './note-repository.js';

function applyChanges(note: Note, body: UpdateNoteBody): Partial<Note> {
  const changes: Partial<Note> = {};
  if (body.data !== undefined) changes.data = normalizeData(note, { ...body.data, ...(note.data.addenda ? { addenda: note.data.addenda } : {}) });
  if (body.patientId !== undefined) changes.patientId = body.patientId;
  if (body.eventTimestamp !== undefined) changes.eventTimestamp = new Date(body.eventTimestamp).toISOString();
  if (body.files !== undefined) changes.files = body.files;
  if (body.onBehalfOf !== undefined) changes.onBehalfOf = body.onBehalfOf;
  return changes;
}

function assertUnsigned(note: Note): void {
  if (isSignedStatus(note.status) || note.signed) throw new ValidationError(NOTE_MESSAGES.signedReadOnly);
}

/**
 * POST /v1/notes/{noteId}: saves an unsigned note. A draft stays a draft, an EMAIL becomes WRITTEN,
 * an SMS log DELIVERED; refused while a wildcard, no patient, no data or empty text remains.
 */
export async function saveNote(auth: AuthContext, noteId: string, body: UpdateNoteBody, now = new Date()): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  assertVersion(note, body.noteVersion);
  assertUnsigned(note);
  if (!isEditableStatus(note.status) && note.status !== 'DELIVERED') throw new ValidationError(NOTE_MESSAGES.signedReadOnly);
  const candidate = { ...note, ...applyChanges(note, body) };
  await assertSavable(auth.practiceId, candidate, now);
  const status = statusAfterSave(note.noteType, note.status === 'HIDDEN' ? 'DRAFT' : note.status);
  const saved = await replaceNote(auth.practiceId, nextVersion(candidate, { status }, now), body.noteVersion);
  await auditNote(auth, 'update', saved);
  if (saved.status === 'DRAFT') await draftSaved(auth, saved);
  return saved;
}

/** POST /v1/notes/{noteId}/sign: saves the optional final data and signs; the signer becomes the author. */
export async function signNote(auth: AuthContext, noteId: string, body: SignNoteBody, now = new Date()): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  assertVersion(note, body.noteVersion);
  if (isSignedStatus(note.status) || note.signed) throw new ValidationError(NOTE_MESSAGES.alreadySigned);
  if (note.noteType === 'EMAIL') throw new ValidationError('An email note is sent, not signed.');
  const candidate = { ...note, ...applyChanges(note, body) };
  await assertSavable(auth.practiceId, candidate, now);
  const signer = personOf(auth);
  const signed = await replaceNote(
    auth.practiceId,
    nextVersion(candidate, { status: statusAfterSign(note.noteType, note.status === 'HIDDEN' ? 'DRAFT' : note.status), signed: now.toISOString(), author: signer, signedBy: signer }, now),
    body.noteVersion,
  );
  await auditNote(auth, 'update', signed);
  await draftSigned(auth, signed);
  return signed;
}
