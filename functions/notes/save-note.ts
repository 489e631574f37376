import { isSignedStatus, NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import { canEditNote, statusAfterSave, statusAfterSign } from '../../shared/notes/note-rules.js';
import type { Note, SignNoteBody, UpdateNoteBody } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { draftSaved, draftSigned } from './draft-notifications.js';
import { assertSavable, auditNote, normalizeData, personOf } from './note-common.js';
import { requireNote, updateNote } from './note-repository.js';

function applyChanges(note: Note, body: UpdateNoteBody): Partial<Note> {
  const changes: Partial<Note> = {};
  if (body.data !== undefined) changes.data = normalizeData(note, { ...body.data, ...(note.data.addenda ? { addenda: note.data.addenda } : {}) });
  if (body.patientId !== undefined) changes.patientId = body.patientId;
  if (body.eventTimestamp !== undefined) changes.eventTimestamp = new Date(body.eventTimestamp).toISOString();
  if (body.files !== undefined) changes.files = body.files;
  if (body.onBehalfOf !== undefined) changes.onBehalfOf = body.onBehalfOf;
  return changes;
}

/**
 * POST /v1/notes/{noteId}: saves an unsigned note. A draft stays a draft, an EMAIL becomes WRITTEN,
 * an SMS log DELIVERED; refused while a wildcard, no patient, no data or empty text remains.
 */
export async function saveNote(auth: AuthContext, noteId: string, body: UpdateNoteBody, now = new Date()): Promise<Note> {
  const { saved } = await updateNote(
    auth.practiceId,
    noteId,
    body.noteVersion,
    async (note) => {
      if (!canEditNote(note)) throw new ValidationError(NOTE_MESSAGES.signedReadOnly);
      const changes = applyChanges(note, body);
      // A sale's pricing (and its stock code) loads with the first sale, not with every note's save.
      if (note.noteType === 'SALES' && changes.data) changes.data = await (await import('./sales.js')).priceSale(auth.practiceId, changes.data);
      await assertSavable(auth.practiceId, { ...note, ...changes }, now);
      return { ...changes, status: statusAfterSave(note.noteType, note.status === 'HIDDEN' ? 'DRAFT' : note.status) };
    },
    { now },
  );
  await auditNote(auth, 'update', saved);
  if (saved.status === 'DRAFT') await draftSaved(auth, saved);
  return saved;
}

/** POST /v1/notes/{noteId}/sign: saves the optional final data and signs; the signer becomes the author. */
export async function signNote(auth: AuthContext, noteId: string, body: SignNoteBody, now = new Date()): Promise<Note> {
  // A sale's signature also takes its items from stock, in the same transaction.
  if ((await requireNote(auth.practiceId, noteId)).noteType === 'SALES') return (await import('./sales.js')).signSalesNote(auth, noteId, body, now);
  const { saved } = await updateNote(
    auth.practiceId,
    noteId,
    body.noteVersion,
    async (note) => {
      if (isSignedStatus(note.status) || note.signed) throw new ValidationError(NOTE_MESSAGES.alreadySigned);
      if (note.noteType === 'EMAIL') throw new ValidationError('An email note is sent, not signed.');
      const changes = applyChanges(note, body);
      await assertSavable(auth.practiceId, { ...note, ...changes }, now);
      const signer = await personOf(auth);
      const status = statusAfterSign(note.noteType, note.status === 'HIDDEN' ? 'DRAFT' : note.status);
      return { ...changes, status, signed: now.toISOString(), author: signer, signedBy: signer };
    },
    { now },
  );
  await auditNote(auth, 'update', saved);
  await draftSigned(auth, saved);
  return saved;
}
