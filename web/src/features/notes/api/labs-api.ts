import type { LabOrderBody, LabTrend } from '../../../../../shared/labs/lab-schema.js';
import { Note } from '../../../../../shared/notes/note-schema.js';
import { LabTrendAnswer, NoteListAnswer, NotePdf } from '../../../../../shared/notes/note-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

export async function orderLab(noteId: string, body: LabOrderBody): Promise<Note> {
  return await apiRequest({ method: 'POST', path: `/v1/notes/${encodeURIComponent(noteId)}/lab-order`, body }, Note);
}

export function fetchLabTrend(patientId: string, code: string, signal?: AbortSignal): Promise<LabTrend> {
  return apiRequest(
    {
      path: `/v2/notes/labs/link/${encodeURIComponent(patientId)}/${encodeURIComponent(code)}`,
      query: { timezoneOffset: new Date().getTimezoneOffset() },
      signal,
    },
    LabTrendAnswer,
  );
}

export async function fetchLabPdf(noteId: string): Promise<{ fileName: string; blob: Blob }> {
  const body = await apiRequest({ path: '/v1/notes/labs/print', query: { id: noteId } }, NotePdf);
  const bytes = Uint8Array.from(atob(body.base64), (c) => c.charCodeAt(0));
  return { fileName: body.fileName, blob: new Blob([bytes], { type: 'application/pdf' }) };
}

/** GET /v1/notes?patientId&noteType=LAB: the patient's lab notes (the lab table filters them). */
export async function fetchLabNotes(patientId: string, signal?: AbortSignal): Promise<Note[]> {
  return (await apiRequest({ path: '/v1/notes', query: { patientId, noteType: 'LAB', excludeFormattedText: true }, signal }, NoteListAnswer)).notes;
}
