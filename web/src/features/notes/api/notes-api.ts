import { useCallback } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTES_PAGE_SIZE } from '../../../../../shared/notes/note-constants.js';
import {
  Note,
  type AddendNoteBody,
  type ChangePatientBody,
  type CreateNoteBody,
  type NotesPage,
  type SignNoteBody,
  type UpdateNoteBody,
  type UpdateSignedNoteBody,
} from '../../../../../shared/notes/note-schema.js';
import { DraftAssigned, NotesPageAnswer } from '../../../../../shared/notes/note-responses.js';
import { apiRequest } from '../../../lib/api-client.js';
import { noteKeys, type TimelineFilters } from './note-keys.js';

export { noteKeys, type TimelineFilters } from './note-keys.js';

const notePath = (noteId: string, action?: string) => `/v1/notes/${encodeURIComponent(noteId)}${action ? `/${action}` : ''}`;

export async function fetchNote(noteId: string, signal?: AbortSignal): Promise<Note> {
  return await apiRequest({ path: notePath(noteId), signal }, Note);
}

export async function fetchNotesPage(patientId: string, filters: TimelineFilters, offset: number, signal?: AbortSignal): Promise<NotesPage> {
  return await apiRequest(
    {
      path: '/v2/notes',
      query: {
        patientId,
        offset,
        limit: NOTES_PAGE_SIZE,
        noteTypes: filters.noteTypes.join(',') || undefined,
        statuses: filters.statuses.join(',') || undefined,
      },
      signal,
    },
    NotesPageAnswer,
  );
}

export const notesApi = {
  create: async (body: CreateNoteBody) => await apiRequest({ method: 'POST', path: '/v2/notes', body: { ...body, noteId: 'new' } }, Note),
  saveDraft: async (noteId: string, body: UpdateNoteBody) => await apiRequest({ method: 'POST', path: notePath(noteId), body }, Note),
  sign: async (noteId: string, body: SignNoteBody) => await apiRequest({ method: 'POST', path: notePath(noteId, 'sign'), body }, Note),
  updateSigned: async (noteId: string, body: UpdateSignedNoteBody) =>
    await apiRequest({ method: 'POST', path: notePath(noteId, 'update-signed-note'), body }, Note),
  addend: async (noteId: string, body: AddendNoteBody) => await apiRequest({ method: 'POST', path: notePath(noteId, 'addend'), body }, Note),
  changePatient: async (noteId: string, body: ChangePatientBody) => await apiRequest({ method: 'POST', path: notePath(noteId, 'change-patient'), body }, Note),
  toggleAccess: async (noteId: string, noteVersion: number) =>
    await apiRequest({ method: 'POST', path: notePath(noteId, 'toggle-access'), body: { noteVersion } }, Note),
  send: async (noteId: string, noteVersion: number) => await apiRequest({ method: 'POST', path: notePath(noteId, 'send'), body: { noteVersion } }, Note),
  assign: async (noteId: string, userId: string | null) => apiRequest({ method: 'POST', path: notePath(noteId, 'assign'), body: { userId } }, DraftAssigned),
  remove: async (noteId: string, noteVersion?: number) => apiRequest({ method: 'DELETE', path: notePath(noteId), query: { noteVersion } }, Note),
};

export function useNote(noteId: string) {
  return useQuery({ queryKey: noteKeys.detail(noteId), queryFn: ({ signal }) => fetchNote(noteId, signal), staleTime: Infinity });
}

export const notesTimelineQuery = (patientId: string, filters: TimelineFilters, offset: number) =>
  queryOptions({
    queryKey: noteKeys.timeline(patientId, filters, offset),
    queryFn: ({ signal }) => fetchNotesPage(patientId, filters, offset, signal),
  });

export function useNotesTimeline(patientId: string, filters: TimelineFilters, offset: number) {
  return useQuery({ ...notesTimelineQuery(patientId, filters, offset), placeholderData: keepPreviousData });
}

/** After any write the window shows the server's note and the timelines refetch. */
export function useNoteWritten() {
  const queryClient = useQueryClient();
  return useCallback(
    (note: Note) => {
      queryClient.setQueryData(noteKeys.detail(note.noteId), note);
      void queryClient.invalidateQueries({ queryKey: noteKeys.timelines() });
    },
    [queryClient],
  );
}
