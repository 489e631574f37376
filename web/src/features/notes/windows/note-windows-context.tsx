import { createContext, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { NOTE_CREATE_ERROR } from '../../../../../shared/notes/note-create-error.js';
import type { NoteType } from '../../../../../shared/notes/note-constants.js';
import { focusIsLost, focusMain } from '../../../lib/focus.js';
import { showToast } from '../../../lib/toasts.js';
import { useBeforeUnloadPrompt } from '../../../lib/unsaved-changes.js';
import { initialNoteWindows, noteWindowsReducer, type NoteStage, type NoteWindowEntry } from './note-window-state.js';

export interface OpenNoteRequest {
  noteId: string;
  patientId: string | null;
  noteType: NoteType;
  patientName?: string;
}

export interface NoteWindowsApi {
  windows: readonly NoteWindowEntry[];
  openNote(request: OpenNoteRequest): void;
  /**
   * Creates a DRAFT with a generated id and opens it. `hidden` makes it the palette's hidden draft
   * (spec notes §4): locked, so hidden from the patient portal until someone unlocks it.
   */
  createNote(request: { patientId: string | null; noteType: NoteType; patientName?: string; hidden?: boolean; data?: Record<string, unknown> }): Promise<void>;
  /** Asks first when the window has unsaved changes. */
  requestClose(noteId: string): void;
  close(noteId: string): void;
  setStage(noteId: string, stage: NoteStage): void;
  setDirty(noteId: string, dirty: boolean): void;
  describe(request: OpenNoteRequest): void;
  /** The window waiting for the user to confirm closing with unsaved changes. */
  closing: string | null;
  cancelClose(): void;
}

const NoteWindowsContext = createContext<NoteWindowsApi | null>(null);

/** A closing dialog hands focus back a frame or two after it goes; look a few times. */
const FOCUS_RETURN_CHECKS = 6;
const FOCUS_RETURN_INTERVAL_MS = 50;

/** What had focus when a note was opened, to return to when it closes. */
function rememberOpener(openers: Map<string, Element>, noteId: string) {
  const active = document.activeElement;
  if (active && active !== document.body && !openers.has(noteId)) openers.set(noteId, active);
}

/** After a window closes, focus goes back to what opened it, or to the screen's heading when that is gone. */
function returnFocus(opener: Element | undefined) {
  let checks = 0;
  const timer = window.setInterval(() => {
    checks += 1;
    if (focusIsLost()) {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      else focusMain();
    }
    if (checks >= FOCUS_RETURN_CHECKS) window.clearInterval(timer);
  }, FOCUS_RETURN_INTERVAL_MS);
}

/** Holds the open note windows above every route, so notes stay open while the user moves around. */
export function NoteWindowsProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(noteWindowsReducer, initialNoteWindows);
  const [closing, setClosing] = useReducer((_: string | null, next: string | null) => next, null);
  const windowsRef = useRef(state.windows);
  windowsRef.current = state.windows;
  const openers = useRef(new Map<string, Element>());
  /** Dirty flags as set, ahead of the next render: a close asked right after a keystroke must see it. */
  const dirtyNow = useRef(new Set<string>());

  const closeWindow = (noteId: string) => {
    const opener = openers.current.get(noteId);
    openers.current.delete(noteId);
    dirtyNow.current.delete(noteId);
    dispatch({ type: 'close', noteId });
    returnFocus(opener);
  };

  const api = useMemo<Omit<NoteWindowsApi, 'windows' | 'closing'>>(
    () => ({
      openNote: (request) => {
        rememberOpener(openers.current, request.noteId);
        dispatch({ type: 'open', ...request });
      },
      createNote: async ({ patientId, noteType, patientName, hidden, data }) => {
        try {
          // The notes API comes with the first note, not with every screen's first download.
          const { notesApi } = await import('../api/notes-api.js');
          const note = await notesApi.create({
            noteType,
            patientId,
            status: 'DRAFT',
            data: data ?? {},
            eventTimestamp: new Date().toISOString(),
            ...(hidden ? { hidden: true } : {}),
          });
          rememberOpener(openers.current, note.noteId);
          dispatch({ type: 'open', noteId: note.noteId, patientId: note.patientId, noteType: note.noteType, patientName });
        } catch {
          showToast(NOTE_CREATE_ERROR, { tone: 'error' });
        }
      },
      requestClose: (noteId) => {
        const entry = windowsRef.current.find((w) => w.noteId === noteId);
        if (entry?.dirty || dirtyNow.current.has(noteId)) setClosing(noteId);
        else closeWindow(noteId);
      },
      close: (noteId) => {
        setClosing(null);
        closeWindow(noteId);
      },
      setStage: (noteId, stage) => dispatch({ type: 'stage', noteId, stage }),
      setDirty: (noteId, dirty) => {
        if (dirty) dirtyNow.current.add(noteId);
        else dirtyNow.current.delete(noteId);
        dispatch({ type: 'dirty', noteId, dirty });
      },
      describe: (request) => dispatch({ type: 'describe', ...request }),
      cancelClose: () => setClosing(null),
    }),
    [],
  );

  // The result screen in a note's frame asks its parent to close the note (spec notes §2).
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const message = event.data as { type?: unknown; noteId?: unknown } | null;
      if (message?.type === 'closeNote' && typeof message.noteId === 'string') closeWindow(message.noteId);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  // Windows stay open across the app's own navigation; only leaving or reloading the tab would lose typed text.
  useBeforeUnloadPrompt(state.windows.some((w) => w.dirty));

  const value = useMemo(() => ({ ...api, windows: state.windows, closing }), [api, state.windows, closing]);
  return <NoteWindowsContext.Provider value={value}>{children}</NoteWindowsContext.Provider>;
}

export function useNoteWindows(): NoteWindowsApi {
  const value = useContext(NoteWindowsContext);
  if (!value) throw new Error('useNoteWindows needs a NoteWindowsProvider');
  return value;
}
