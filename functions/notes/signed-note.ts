import { SALES_MESSAGES } from '../../shared/sales/sales-messages.js';
import { isSignedStatus, NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import { plainText } from '../../shared/notes/note-rules.js';
import type { AddendNoteBody, Note, UpdateSignedNoteBody } from '../../shared/notes/note-schema.js';
import { signNoteText } from '../../shared/notes/signature-line.js';
import { hasWildcard } from '../../shared/notes/wildcard.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { requirePermission } from '../lib/http/permissions.js';
import { auditNote, personOf } from '../core/notes/note-common.js';
import { updateNote } from '../data/notes/note-repository.js';

/** Who owns a note under the permissions table: its author and the prescriber it was written for. */
export function noteOwners(note: Note) {
  return { authorUserId: note.author?.userId ?? null, onBehalfOf: note.onBehalfOf };
}

function assertText(text: string, formattedText: string): void {
  if (hasWildcard(text) || hasWildcard(formattedText)) throw new ValidationError(NOTE_MESSAGES.wildcard, { text: NOTE_MESSAGES.wildcard });
  if (!plainText(text) && !plainText(formattedText)) throw new ValidationError(NOTE_MESSAGES.emptyText, { text: NOTE_MESSAGES.emptyText });
}

const SALES_SIGNED_READ_ONLY = SALES_MESSAGES.signedReadOnly;

/** POST /v1/notes/{noteId}/update-signed-note: replaces the text of a signed note; it stays signed. */
export async function updateSignedNote(auth: AuthContext, noteId: string, body: UpdateSignedNoteBody, now = new Date()): Promise<Note> {
  const { saved } = await updateNote(
    auth.practiceId,
    noteId,
    body.noteVersion,
    (note) => {
      if (!isSignedStatus(note.status)) throw new ValidationError(NOTE_MESSAGES.notSigned);
      // A signed sale has already taken its items from stock: its record stays as signed.
      if (note.noteType === 'SALES') throw new ValidationError(SALES_SIGNED_READ_ONLY);
      // Spec notes §4: a signed prescription is deleted and written again, never changed.
      if (note.noteType === 'RX') throw new ValidationError(NOTE_MESSAGES.rxSignedReadOnly);
      requirePermission(auth, 'note.signed.change', noteOwners(note));
      assertText(body.text, body.formattedText);
      return { data: { ...note.data, text: body.text, formattedText: body.formattedText } };
    },
    { now },
  );
  await auditNote(auth, 'update', saved);
  return saved;
}

/** POST /v1/notes/{noteId}/addend: appends an addendum by the caller; the note becomes ADDENDED. */
export async function addendNote(auth: AuthContext, noteId: string, body: AddendNoteBody, now = new Date()): Promise<Note> {
  const { saved } = await updateNote(
    auth.practiceId,
    noteId,
    body.noteVersion,
    async (note) => {
      assertText(body.text, body.formattedText);
      const author = await personOf(auth);
      // An addendum is signed as it is added: a template's signature line in it is its author's.
      const signed = signNoteText(
        { text: body.text, formattedText: body.formattedText },
        { signer: author.name, provider: author.name, at: now, timeZone: body.timeZone },
      );
      const addendum = { text: signed.text, formattedText: signed.formattedText, author, timestamp: now.toISOString() };
      return { status: 'ADDENDED', data: { ...note.data, addenda: [...(note.data.addenda ?? []), addendum] } };
    },
    {
      now,
      precheck: (note) => {
        if (!isSignedStatus(note.status)) throw new ValidationError(NOTE_MESSAGES.addendUnsigned);
        if (note.noteType === 'SALES') throw new ValidationError(SALES_SIGNED_READ_ONLY);
        if (note.noteType === 'RX') throw new ValidationError(NOTE_MESSAGES.rxSignedReadOnly);
      },
    },
  );
  await auditNote(auth, 'update', saved);
  return saved;
}
