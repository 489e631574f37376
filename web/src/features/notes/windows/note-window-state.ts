import type { NoteType } from '../../../../../shared/notes/note-constants.js';

/** Spec notes §3: a note window is default, minimized (in the tray) or fullscreen. */
export type NoteStage = 'default' | 'minimized' | 'fullscreen';

export interface NoteWindowEntry {
  noteId: string;
  patientId: string | null;
  noteType: NoteType;
  stage: NoteStage;
  /** Unsaved edits: closing asks first. */
  dirty: boolean;
  /** Patient name for the window title and the tray chip, once the window knows it. */
  patientName?: string;
}

export interface NoteWindowsState {
  /** Oldest first; the newest window sits rightmost and on top. */
  windows: NoteWindowEntry[];
}

export type NoteWindowsAction =
  | { type: 'open'; noteId: string; patientId: string | null; noteType: NoteType; patientName?: string }
  | { type: 'close'; noteId: string }
  | { type: 'stage'; noteId: string; stage: NoteStage }
  | { type: 'dirty'; noteId: string; dirty: boolean }
  | { type: 'describe'; noteId: string; patientId: string | null; noteType: NoteType; patientName?: string };

export const initialNoteWindows: NoteWindowsState = { windows: [] };

const update = (state: NoteWindowsState, noteId: string, patch: (w: NoteWindowEntry) => NoteWindowEntry): NoteWindowsState => {
  const index = state.windows.findIndex((w) => w.noteId === noteId);
  if (index === -1) return state;
  const next = patch(state.windows[index]!);
  if (next === state.windows[index]) return state;
  const windows = [...state.windows];
  windows[index] = next;
  return { windows };
};

export function noteWindowsReducer(state: NoteWindowsState, action: NoteWindowsAction): NoteWindowsState {
  switch (action.type) {
    case 'open': {
      const existing = state.windows.find((w) => w.noteId === action.noteId);
      // Opening a note that is already open brings it forward (restored) rather than doubling it.
      const entry: NoteWindowEntry = existing
        ? { ...existing, stage: existing.stage === 'minimized' ? 'default' : existing.stage }
        : { noteId: action.noteId, patientId: action.patientId, noteType: action.noteType, stage: 'default', dirty: false, patientName: action.patientName };
      return { windows: [...state.windows.filter((w) => w.noteId !== action.noteId), entry] };
    }
    case 'close':
      return { windows: state.windows.filter((w) => w.noteId !== action.noteId) };
    case 'stage':
      return update(state, action.noteId, (w) => (w.stage === action.stage ? w : { ...w, stage: action.stage }));
    case 'dirty':
      return update(state, action.noteId, (w) => (w.dirty === action.dirty ? w : { ...w, dirty: action.dirty }));
    case 'describe':
      return update(state, action.noteId, (w) =>
        w.patientId === action.patientId && w.noteType === action.noteType && w.patientName === action.patientName
          ? w
          : { ...w, patientId: action.patientId, noteType: action.noteType, patientName: action.patientName },
      );
  }
}
