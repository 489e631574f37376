import { isSignedStatus, NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import { statusAfterSign } from '../../shared/notes/note-rules.js';
import type { Note, SignNoteBody } from '../../shared/notes/note-schema.js';
import { hasPendingSignature, signNoteText } from '../../shared/notes/signature-line.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { getUser } from '../data/users/user-repository.js';
import { ValidationError } from '../lib/errors.js';
import { draftSigned } from './draft-notifications.js';
import { assertSavable, auditNote, personOf } from '../core/notes/note-common.js';
import { requireNote, updateNote } from '../data/notes/note-repository.js';
import { applyChanges } from './save-note.js';

// A note is signed once and saved every few seconds before: the signature's code loads with its first request.
/**
 * The note's data with the signature lines a template left written by the signer (and, for
 * {{provider signature}}, by the prescriber the note is written on behalf of), or null when it has none.
 */
async function withSignatureLines(
  auth: AuthContext,
  note: Pick<Note, 'data' | 'onBehalfOf'>,
  signer: string,
  timeZone: string | undefined,
  now: Date,
): Promise<Note['data'] | null> {
  if (!hasPendingSignature(note.data.text) && !hasPendingSignature(note.data.formattedText)) return null;
  const provider = note.onBehalfOf ? (await getUser(auth.practiceId, note.onBehalfOf))?.name.trim() || signer : signer;
  return signNoteText(note.data, { signer, provider, at: now, timeZone });
}

/** POST /v1/notes/{noteId}/sign: saves the optional final data and signs; the signer becomes the author. */
export async function signNote(auth: AuthContext, noteId: string, body: SignNoteBody, now = new Date()): Promise<Note> {
  // A sale's signature also takes its items from stock, in the same transaction.
  const type = (await requireNote(auth.practiceId, noteId)).noteType;
  if (type === 'SALES') return (await import('./sales.js')).signSalesNote(auth, noteId, body, now);
  // A prescription's signature dispenses from the inventory and adds the chart medication, in one transaction.
  if (type === 'RX') return (await import('./rx.js')).signRxNote(auth, noteId, body, now);
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
      const data = await withSignatureLines(auth, { ...note, ...changes }, signer.name, body.timeZone, now);
      return { ...changes, ...(data ? { data } : {}), status, signed: now.toISOString(), author: signer, signedBy: signer };
    },
    { now },
  );
  await auditNote(auth, 'update', saved);
  await draftSigned(auth, saved);
  return saved;
}
