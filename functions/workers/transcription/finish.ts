/**
 * The end of a run: the generated note goes into the draft's text and formattedText (below any
 * text the clinician already wrote), and the author's DRAFT notification for the note says it is
 * ready; the table stream announces that write to the author's open windows.
 */
import type { AiEngine, EvidencedSentence, NoteSection } from '../../../shared/ai/transcription-schema.js';
import { ConflictError } from '../../lib/errors.js';
import { createNotification, findLatestBySource, updateNotification } from '../../data/notifications/notification-repository.js';
import { getNote, writeNextVersion } from '../../data/notes/note-repository.js';
import { getTemplate } from '../../data/notes/template-repository.js';
import type { TranscriptionRecord } from '../../data/transcriptions/transcription-repository.js';
import { noteNoLongerDraft } from './errors.js';
import { mergeIntoDraft, renderNote } from './note/note-text.js';
import { fillTemplate } from './note/template-fill.js';

export const AI_NOTE_READY_TEXT = 'AI note ready';

async function writeNote(practiceId: string, record: TranscriptionRecord, generated: { text: string; formattedText: string }): Promise<void> {
  // A clinician saving the draft at the same moment bumps its version: read again and merge again.
  for (let attempt = 0; ; attempt++) {
    const note = await getNote(practiceId, record.noteId);
    if (!note || note.status !== 'DRAFT' || note.data.transcriptionId !== record.transcriptionId) throw noteNoLongerDraft();
    try {
      await writeNextVersion(practiceId, note, { data: { ...note.data, ...mergeIntoDraft(note.data, generated) } }, new Date());
      return;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 4) throw error;
    }
  }
}

async function notifyAuthor(practiceId: string, record: TranscriptionRecord): Promise<void> {
  const actor = { userId: record.authorId };
  const open = (await findLatestBySource(practiceId, 'DRAFT', record.noteId)).filter(
    (n) => n.notificationStatus !== 'COMPLETED' && n.notificationStatus !== 'DELETED',
  );
  const data = { noteId: record.noteId, patientId: record.patientId, transcriptionId: record.transcriptionId };
  if (open[0]) {
    await updateNotification(
      practiceId,
      open[0].notificationId,
      { notificationStatus: 'UNREAD', assigned: record.authorId, text: AI_NOTE_READY_TEXT, data },
      actor,
    );
    return;
  }
  await createNotification(
    practiceId,
    {
      notificationType: 'DRAFT',
      notificationStatus: 'UNREAD',
      sourceId: record.noteId,
      relatedTo: record.noteId,
      assigned: record.authorId,
      patientId: record.patientId,
      text: AI_NOTE_READY_TEXT,
      data,
    },
    actor,
  );
}

export async function finishNote(
  practiceId: string,
  record: TranscriptionRecord,
  sections: readonly NoteSection[],
  avs: readonly EvidencedSentence[],
  engines: { speech: AiEngine; text: AiEngine },
): Promise<void> {
  // A template deleted since the run started falls back to the SOAP layout rather than losing the note.
  const template = record.templateIdent ? await getTemplate(practiceId, record.templateIdent) : null;
  await writeNote(practiceId, record, template ? fillTemplate(template.body, sections, avs, engines) : renderNote(sections, avs, engines));
  await notifyAuthor(practiceId, record);
}
