import { emailSendMissing, emailSendMissingMessage } from '../../shared/notes/email.js';
import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { Note, VersionOnlyBody } from '../../shared/notes/note-schema.js';
import { hasWildcard } from '../../shared/notes/wildcard.js';
import { emailSender } from '../lib/adapters/email.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { draftSigned } from './draft-notifications.js';
import { assertNotDeleted, assertVersion, auditNote, nextVersion, requirePatient } from './note-common.js';
import { replaceNote, requireNote } from './note-repository.js';

/**
 * POST /v1/notes/{noteId}/send: sends an EMAIL note through the email adapter; it becomes SENT.
 * The version is claimed before the mail goes out, so two clicks cannot send it twice.
 */
export async function sendEmailNote(auth: AuthContext, noteId: string, body: VersionOnlyBody, now = new Date()): Promise<Note> {
  const note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  if (note.noteType !== 'EMAIL') throw new ValidationError(NOTE_MESSAGES.emailNotEmail);
  if (note.status === 'SENT') throw new ValidationError(NOTE_MESSAGES.emailAlreadySent);
  assertVersion(note, body.noteVersion);
  const d = note.data;
  const missing = emailSendMissing(note.patientId, d);
  if (missing.length) throw new ValidationError(emailSendMissingMessage(missing), Object.fromEntries(missing.map((m) => [m, 'is required'])));
  if (hasWildcard(d.text) || hasWildcard(d.formattedText)) throw new ValidationError(NOTE_MESSAGES.wildcard);
  await requirePatient(auth.practiceId, note.patientId!);
  const claimed = await replaceNote(auth.practiceId, nextVersion(note, { status: 'SENT' }, now), body.noteVersion);
  const sent = await emailSender().send(auth.practiceId, {
    to: d.to!,
    from: d.from!,
    subject: d.subject!,
    text: d.text!,
    ...(d.formattedText ? { html: d.formattedText } : {}),
  });
  const saved = await replaceNote(
    auth.practiceId,
    nextVersion(claimed, { data: { ...claimed.data, sentAt: now.toISOString(), messageId: sent.messageId, transport: sent.transport } }, now),
    claimed.noteVersion,
  );
  await auditNote(auth, 'update', saved);
  await draftSigned(auth, saved);
  return saved;
}
