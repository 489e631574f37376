import { emailSendMissing, emailSendMissingMessage } from '../../shared/notes/email.js';
import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import type { Note, VersionOnlyBody } from '../../shared/notes/note-schema.js';
import { hasWildcard } from '../../shared/notes/wildcard.js';
import { emailSender } from '../lib/adapters/email.js';
import { EmailSendFailure } from '../lib/adapters/email-sender.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, ValidationError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import { draftSigned } from './draft-notifications.js';
import { auditNote, requirePatient } from '../core/notes/note-common.js';
import { updateNote, writeNextVersion } from '../data/notes/note-repository.js';

const FAILURE_STATUS = { rejected: 502, throttled: 503, paused: 503, unavailable: 502, 'not-configured': 503 } as const;

/**
 * POST /v1/notes/{noteId}/send: sends an EMAIL note through the email adapter; it becomes SENT.
 * The version is claimed (status SENT) before the mail goes out, so two clicks cannot send it
 * twice. If the transport refuses, the claim is undone: the note is back in its previous status
 * with its text, and the error says why and what to do; its noteVersion lets the window go on.
 */
export async function sendEmailNote(auth: AuthContext, noteId: string, body: VersionOnlyBody, now = new Date()): Promise<Note> {
  const { previous, saved: claimed } = await updateNote(
    auth.practiceId,
    noteId,
    body.noteVersion,
    async (note) => {
      const patient = note.patientId ? await requirePatient(auth.practiceId, note.patientId) : null;
      // An email written before the patient had an address goes to the one they have now.
      const d = { ...note.data, to: note.data.to?.trim() || patient?.email?.trim() || '' };
      const missing = emailSendMissing(note.patientId, d);
      if (patient && missing.includes('to')) throw new ValidationError(NOTE_MESSAGES.missingPatientEmail, { to: NOTE_MESSAGES.missingPatientEmail });
      if (missing.length) throw new ValidationError(emailSendMissingMessage(missing), Object.fromEntries(missing.map((m) => [m, 'is required'])));
      if (hasWildcard(d.text) || hasWildcard(d.formattedText)) throw new ValidationError(NOTE_MESSAGES.wildcard);
      return { status: 'SENT', data: d };
    },
    {
      now,
      precheck: (note) => {
        if (note.noteType !== 'EMAIL') throw new ValidationError(NOTE_MESSAGES.emailNotEmail);
        if (note.status === 'SENT') throw new ValidationError(NOTE_MESSAGES.emailAlreadySent);
      },
    },
  );
  const d = claimed.data;
  let sent;
  try {
    const sender = await emailSender();
    sent = await sender.send(auth.practiceId, {
      to: d.to!,
      from: d.from!,
      subject: d.subject!,
      text: d.text!,
      ...(d.formattedText ? { html: d.formattedText } : {}),
    });
  } catch (error) {
    const failure = error instanceof EmailSendFailure ? error : new EmailSendFailure('unavailable', (error as Error)?.name ?? 'Error');
    const restored = await writeNextVersion(auth.practiceId, claimed, { status: previous.status }, new Date()).catch((restoreError: unknown) => {
      log.error('email claim not undone', { noteId, error: (restoreError as Error)?.name });
      return claimed;
    });
    await auditNote(auth, 'update', restored);
    throw new DependencyError(FAILURE_STATUS[failure.kind], NOTE_MESSAGES.emailSendFailed(failure.kind), failure.code, {
      noteVersion: restored.noteVersion,
      reason: failure.kind,
    });
  }
  const saved = await writeNextVersion(
    auth.practiceId,
    claimed,
    { data: { ...claimed.data, sentAt: now.toISOString(), messageId: sent.messageId, transport: sent.transport } },
    now,
  );
  await auditNote(auth, 'update', saved);
  await draftSigned(auth, saved);
  return saved;
}
