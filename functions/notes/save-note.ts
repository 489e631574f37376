import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import { canEditNote, statusAfterSave } from '../../shared/notes/note-rules.js';
import type { Note, UpdateNoteBody } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { getPatient } from '../data/patients/patient-repository.js';
import { readAhead } from '../lib/read-ahead.js';
import { draftSaved, openDrafts } from './draft-notifications.js';
import { assertSavable, auditNote, normalizeData } from '../core/notes/note-common.js';
import { updateNote } from '../data/notes/note-repository.js';

/** The fields a save or a signature sends, applied to the stored note. */
export function applyChanges(note: Note, body: UpdateNoteBody): Partial<Note> {
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
  // An autosave names the note's patient and is usually a draft's: the patient and the draft's
  // notification are read beside the note, not after it, which takes two round trips off each save.
  const namedPatient = body.patientId ? readAhead(getPatient(auth.practiceId, body.patientId)) : undefined;
  const drafts = readAhead(openDrafts(auth.practiceId, noteId));
  const { saved } = await updateNote(
    auth.practiceId,
    noteId,
    body.noteVersion,
    async (note) => {
      if (!canEditNote(note)) throw new ValidationError(note.noteType === 'RX' ? NOTE_MESSAGES.rxSignedReadOnly : NOTE_MESSAGES.signedReadOnly);
      const changes = applyChanges(note, body);
      if (note.noteType === 'SALES' && changes.data) changes.data = await (await import('./sales.js')).priceSale(auth.practiceId, changes.data);
      // Prescriptions are rare beside other notes: their code loads with the first one.
      if (note.noteType === 'RX' && changes.data) changes.data = await (await import('./rx.js')).prepareRx(auth.practiceId, changes.data, now);
      const next = { ...note, ...changes };
      await assertSavable(auth.practiceId, next, now, next.patientId === body.patientId ? namedPatient : undefined);
      return { ...changes, status: statusAfterSave(note.noteType, note.status === 'HIDDEN' ? 'DRAFT' : note.status) };
    },
    { now },
  );
  // The audit entry and the draft notification are independent writes after the note is stored: they go out together.
  await Promise.all([auditNote(auth, 'update', saved), saved.status === 'DRAFT' ? draftSaved(auth, saved, drafts) : undefined]);
  return saved;
}
