import type { Note } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { assertNotDeleted, auditNote } from '../core/notes/note-common.js';
import { requireNote } from '../data/notes/note-repository.js';

/** GET /v1/notes/{noteId} */
export async function getNoteById(auth: AuthContext, noteId: string): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  await auditNote(auth, 'read', note);
  return note;
}
