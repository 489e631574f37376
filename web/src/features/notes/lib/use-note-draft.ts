import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { NOTE_MESSAGES, NOTE_TIMING } from '../../../../../shared/notes/note-constants.js';
import { saveProblem } from './save-problem.js';
import { unconfirmedVitals } from '../../../../../shared/notes/vitals-ranges.js';
import type { Note, NoteData } from '../../../../../shared/notes/note-schema.js';
import { isApiError } from '../../../lib/api-error.js';
import { notesApi, useNoteWritten } from '../api/notes-api.js';
import { debounce } from './debounce.js';

export type SaveState =
  | { kind: 'clean' }
  | { kind: 'dirty' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: Date }
  /** Autosave skipped because the note cannot be saved yet (e.g. a wildcard remains). */
  | { kind: 'blocked'; message: string }
  /** `stale`: the server refused the write because someone else saved first (409 on noteVersion). */
  | { kind: 'error'; message: string; stale?: boolean };

/** Spec notes §8: the server's text when it sent one, otherwise the generic save message. */
export function saveErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status > 0 && error.status < 500 && error.message) return NOTE_MESSAGES.errorSaving(error.message);
  if (isApiError(error) && error.status >= 500) return NOTE_MESSAGES.statusError(error.status, error.message);
  return NOTE_MESSAGES.saveError;
}

/** The failed-write state for the window footer; a 409 offers Reload (see the latest without losing the text). */
export function errorState(error: unknown, message = saveErrorMessage(error)): SaveState {
  return { kind: 'error', message, ...(isApiError(error, 409) ? { stale: true } : {}) };
}

/** Said in the footer when autosave holds back an unusual vital. */
export const VITALS_UNCONFIRMED_HINT = 'Save to confirm it.';

export interface DraftSnapshot {
  data: NoteData;
  patientId: string | null;
  eventTimestamp: string;
}

/**
 * The editing state of one open note: local edits, autosave of drafts (5 s debounce, 30 s max
 * wait), the last version read from the server (sent with every write so a stale edit gets 409),
 * and the save state shown in the window. A failed save never touches the local edits.
 */
export function useNoteDraft(note: Note, patientDob: RefObject<string | null>, onDirtyChange: (dirty: boolean) => void) {
  const writeNote = useNoteWritten();
  const [snapshot, setSnapshot] = useState<DraftSnapshot>(() => ({ data: note.data, patientId: note.patientId, eventTimestamp: note.eventTimestamp }));
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'clean' });
  const latest = useRef(snapshot);
  const version = useRef(note.noteVersion);
  const edits = useRef(0);
  const savedEdits = useRef(0);
  const inFlight = useRef<Promise<Note | null> | null>(null);
  const onDirtyRef = useRef(onDirtyChange);
  onDirtyRef.current = onDirtyChange;
  // Save reads the note through a ref: a new note object after each write must not restart the autosave timer.
  const noteRef = useRef(note);
  noteRef.current = note;

  // Another write in this window (lock, change patient, sign) moves the version on.
  useEffect(() => {
    if (note.noteVersion > version.current) version.current = note.noteVersion;
  }, [note.noteVersion]);

  const autosaves = note.status === 'DRAFT';

  const save = useCallback(
    async (mode: 'auto' | 'manual'): Promise<Note | null> => {
      if (inFlight.current) await inFlight.current;
      // An autosave with nothing new since the last save would only move the version on, and turn
      // a colleague's next save in the same note into a needless 409.
      if (mode === 'auto' && edits.current === savedEdits.current) return null;
      const current = latest.current;
      const { noteId, noteType, files } = noteRef.current;
      const problem = saveProblem({ noteType, patientId: current.patientId, data: current.data, files }, patientDob.current);
      if (problem) {
        setSaveState(mode === 'auto' ? { kind: 'blocked', message: problem.message } : { kind: 'error', message: problem.message });
        return null;
      }
      // An unusual vital waits for the clinician's answer to Save rather than being sent unasked.
      const unconfirmed = mode === 'auto' && noteType === 'VITALS' ? unconfirmedVitals(current.data) : [];
      if (unconfirmed.length) {
        setSaveState({ kind: 'blocked', message: `${unconfirmed.map((f) => f.message).join(' ')} ${VITALS_UNCONFIRMED_HINT}` });
        return null;
      }
      const upTo = edits.current;
      setSaveState({ kind: 'saving' });
      const request = notesApi
        .saveDraft(noteId, { noteVersion: version.current, data: current.data, patientId: current.patientId, eventTimestamp: current.eventTimestamp })
        .then((saved) => {
          version.current = saved.noteVersion;
          savedEdits.current = upTo;
          writeNote(saved);
          const clean = edits.current === upTo;
          setSaveState(clean ? { kind: 'saved', at: new Date() } : { kind: 'dirty' });
          if (clean) onDirtyRef.current(false);
          return saved;
        })
        .catch((error: unknown) => {
          setSaveState(errorState(error));
          return null;
        })
        .finally(() => {
          inFlight.current = null;
        });
      inFlight.current = request;
      return request;
    },
    [patientDob, writeNote],
  );

  const autosave = useMemo(() => debounce(() => void save('auto'), NOTE_TIMING.autosaveDebounceMs, NOTE_TIMING.autosaveMaxWaitMs), [save]);
  useEffect(() => () => autosave.cancel(), [autosave]);
  // Only drafts autosave: once the note is written, signed or sent, a pending autosave is dropped.
  useEffect(() => {
    if (!autosaves) autosave.cancel();
  }, [autosave, autosaves]);

  const change = useCallback(
    (patch: Partial<DraftSnapshot> & { data?: Partial<NoteData> }) => {
      const next: DraftSnapshot = {
        ...latest.current,
        ...patch,
        data: patch.data ? { ...latest.current.data, ...patch.data } : latest.current.data,
      };
      latest.current = next;
      edits.current += 1;
      setSnapshot(next);
      setSaveState({ kind: 'dirty' });
      onDirtyRef.current(true);
      if (autosaves) autosave();
    },
    [autosave, autosaves],
  );

  /**
   * Runs a write that needs the current version (sign, send, lock, change patient) and records the
   * result; `savesEdits` says whether the write carried the local edits, so they count as saved.
   */
  const write = useCallback(
    async (run: (noteVersion: number, current: DraftSnapshot) => Promise<Note>, savesEdits: boolean): Promise<Note> => {
      if (savesEdits) autosave.cancel();
      if (inFlight.current) await inFlight.current;
      const upTo = edits.current;
      const saved = await run(version.current, latest.current);
      version.current = saved.noteVersion;
      writeNote(saved);
      if (savesEdits && edits.current === upTo) {
        savedEdits.current = upTo;
        setSaveState({ kind: 'saved', at: new Date() });
        onDirtyRef.current(false);
      }
      return saved;
    },
    [autosave, writeNote],
  );

  /** The server moved the note to another patient: follow it without counting an edit. */
  const adoptPatient = useCallback((patientId: string) => {
    latest.current = { ...latest.current, patientId };
    setSnapshot(latest.current);
  }, []);

  /**
   * After a 409 the user has seen the latest version and keeps their own text: the next save is
   * based on the latest version (and so replaces it, knowingly).
   */
  const rebase = useCallback(
    (server: Note) => {
      version.current = server.noteVersion;
      writeNote(server);
      setSaveState({ kind: 'dirty' });
      if (server.status === 'DRAFT') autosave();
    },
    [autosave, writeNote],
  );

  /** After a 409 the user chose the latest version: their unsaved edits are dropped. */
  const reset = useCallback(
    (server: Note) => {
      autosave.cancel();
      version.current = server.noteVersion;
      latest.current = { data: server.data, patientId: server.patientId, eventTimestamp: server.eventTimestamp };
      setSnapshot(latest.current);
      savedEdits.current = edits.current;
      writeNote(server);
      setSaveState({ kind: 'clean' });
      onDirtyRef.current(false);
    },
    [autosave, writeNote],
  );

  return { snapshot, latest, saveState, setSaveState, change, save, write, adoptPatient, rebase, reset, version };
}
