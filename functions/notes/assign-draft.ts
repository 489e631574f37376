import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { AssignDraftBody } from '../../shared/notes/note-schema.js';
import type { Notification } from '../../shared/notifications/notification-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { getUser } from '../data/users/user-repository.js';
import { draftAssigned } from './draft-notifications.js';
import { assertNotDeleted, auditNote } from '../core/notes/note-common.js';
import { requireNote } from '../data/notes/note-repository.js';

/** POST /v1/notes/{noteId}/assign: the DRAFT notification goes (UNREAD) to the chosen user. */
export async function assignDraft(auth: AuthContext, noteId: string, body: AssignDraftBody): Promise<{ notification: Notification }> {
  if (!body.userId) throw new ValidationError(NOTE_MESSAGES.assignUserRequired, { userId: NOTE_MESSAGES.assignUserRequired });
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  if (note.status !== 'DRAFT' && note.status !== 'HIDDEN') throw new ValidationError(NOTE_MESSAGES.assignNotDraft);
  const user = await getUser(auth.practiceId, body.userId);
  if (!user) throw new NotFoundError(NOTE_MESSAGES.userNotFound);
  const notification = await draftAssigned(auth, note, body.userId);
  await auditNote(auth, 'update', note);
  return { notification };
}
