import type { QueryClient } from '@tanstack/react-query';
import {
  DEFAULT_TIMELINE_NOTE_TYPES,
  DEFAULT_TIMELINE_STATUSES,
  NOTE_STATUSES,
  NOTE_TYPES,
  type NoteStatus,
  type NoteType,
} from '../../../../../shared/notes/note-constants.js';
import { notesTimelineQuery } from '../api/notes-api.js';
import type { TimelineFilters } from '../api/note-keys.js';
import { NOTE_TYPE_LABEL, STATUS_LABEL } from '../note-types.js';

export const DEFAULT_TYPES = 'default';
const ALL = 'all';
export const typeOptions = [
  { id: DEFAULT_TYPES, label: DEFAULT_TIMELINE_NOTE_TYPES.map((t) => NOTE_TYPE_LABEL[t]).join(', ') },
  { id: ALL, label: 'All types' },
  ...NOTE_TYPES.filter((t) => !(DEFAULT_TIMELINE_NOTE_TYPES as readonly string[]).includes(t)).map((t) => ({ id: t, label: NOTE_TYPE_LABEL[t] })),
];
export const statusOptions = [
  { id: DEFAULT_TYPES, label: DEFAULT_TIMELINE_STATUSES.map(STATUS_LABEL).join(' & ') },
  { id: ALL, label: 'All statuses' },
  ...NOTE_STATUSES.map((s) => ({ id: s, label: STATUS_LABEL(s) })),
];

// 'All' names every type or status (but DELETED): an empty list would let the server apply its defaults.
const typesFor = (choice: string): readonly NoteType[] =>
  choice === DEFAULT_TYPES ? DEFAULT_TIMELINE_NOTE_TYPES : choice === ALL ? NOTE_TYPES : [choice as NoteType];
const statusesFor = (choice: string): readonly NoteStatus[] =>
  choice === DEFAULT_TYPES ? DEFAULT_TIMELINE_STATUSES : choice === ALL ? NOTE_STATUSES.filter((s) => s !== 'DELETED') : [choice as NoteStatus];

/** Where the chart's note filters are kept for this browser tab, so a reload keeps them. */
const FILTERS_KEY = 'tidewell.notes-filters';

export function storedChoice(which: 'type' | 'status', options: readonly { id: string }[]): string {
  try {
    const stored = (JSON.parse(sessionStorage.getItem(FILTERS_KEY) ?? '{}') as Record<string, unknown>)[which];
    return typeof stored === 'string' && options.some((o) => o.id === stored) ? stored : DEFAULT_TYPES;
  } catch {
    return DEFAULT_TYPES;
  }
}

export function storeChoices(type: string, status: string): void {
  try {
    sessionStorage.setItem(FILTERS_KEY, JSON.stringify({ type, status }));
  } catch {
    // Storage may be full or refused (private mode): the filters still apply until the reload.
  }
}

export const filtersFor = (typeChoice: string, statusChoice: string): TimelineFilters => ({
  noteTypes: typesFor(typeChoice),
  statuses: statusesFor(statusChoice),
});

/** The chart's first page of notes, with the filters this tab kept: what the notes panel reads first. */
export async function prefetchNotesTimeline(queryClient: QueryClient, patientId: string): Promise<void> {
  const filters = filtersFor(storedChoice('type', typeOptions), storedChoice('status', statusOptions));
  await queryClient.prefetchQuery(notesTimelineQuery(patientId, filters, 0));
}
