import type { NoteStatus, NoteType } from '../../../../../shared/notes/note-constants.js';

export interface TimelineFilters {
  noteTypes: readonly NoteType[];
  statuses: readonly NoteStatus[];
}

/** The notes' query keys apart from the notes API, so the shell can name them without the note schemas. */
export const noteKeys = {
  all: ['notes'] as const,
  timelines: () => [...noteKeys.all, 'timeline'] as const,
  timeline: (patientId: string, filters: TimelineFilters, offset: number) => [...noteKeys.timelines(), patientId, filters, offset] as const,
  detail: (noteId: string) => [...noteKeys.all, 'detail', noteId] as const,
};
