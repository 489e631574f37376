import { createContext, useContext, type ComponentType } from 'react';
import type { Note } from '../../../../../shared/notes/note-schema.js';

/**
 * What the note window hands to a part another feature adds to it (the recording and
 * transcription panels): the app composes it in, so this feature does not import that one.
 */
export interface NoteExtrasProps {
  note: Note;
  /** The window's current patient (it may have been changed since the note loaded). */
  patientId: string | null;
  editable: boolean;
  /** 'top' sits above the editor (buttons, panels), 'bottom' below it (what explains the text). */
  placement: 'top' | 'bottom';
  /** Saves pending edits, so a server-side change to the note does not meet a stale draft. */
  flushEdits(): Promise<void>;
  /** Takes the note as the server now has it (text, files, version) into the window. */
  adoptServerNote(): Promise<void>;
}

const NoteExtrasContext = createContext<ComponentType<NoteExtrasProps> | null>(null);
export const NoteExtrasProvider = NoteExtrasContext.Provider;

export function NoteExtras(props: NoteExtrasProps) {
  const Extras = useContext(NoteExtrasContext);
  return Extras ? <Extras {...props} /> : null;
}
