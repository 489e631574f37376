import type { Note, NotesListQuery } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { listPatientNotes, listPatientNotesButTexts } from '../data/notes/note-repository.js';

// Histories and date ranges are read far less than the timeline: this loads with its first request.
/**
 * GET /v1/notes?patientId&noteType  (e.g. VITALS history) and
 * GET /v1/notes?patientId&startDate&endDate&excludeFormattedText: oldest first by eventTimestamp.
 */
export async function listNotes(auth: AuthContext, q: NotesListQuery): Promise<{ notes: Note[] }> {
  const range = {
    ...(q.startDate ? { from: new Date(q.startDate).toISOString() } : {}),
    ...(q.endDate ? { to: endOf(q.endDate) } : {}),
  };
  // One type's history (vitals, labs) is read without the patient's texts, which are most of the notes.
  const read =
    q.noteType && q.noteType !== 'SMS'
      ? (await listPatientNotesButTexts(auth.practiceId, q.patientId, { oldestFirst: true })).filter(
          (n) => (!range.from || n.eventTimestamp >= range.from) && (!range.to || n.eventTimestamp <= range.to),
        )
      : await listPatientNotes(auth.practiceId, q.patientId, range);
  let notes = read.filter((n) => n.status !== 'DELETED');
  if (q.noteType) notes = notes.filter((n) => n.noteType === q.noteType);
  if (q.excludeFormattedText) notes = notes.map((n) => ({ ...n, data: withoutFormatted(n.data) }));
  await writeAudit(auth, { action: 'list', entity: 'NOTE', patientId: q.patientId, count: notes.length });
  return { notes };
}

/** A date-only end (YYYY-MM-DD) includes that whole day. */
function endOf(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T23:59:59.999Z`;
  return new Date(value).toISOString();
}

function withoutFormatted(data: Note['data']): Note['data'] {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { formattedText, ...rest } = data;
  return rest;
}
