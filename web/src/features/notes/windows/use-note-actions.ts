import { useQueryClient } from '@tanstack/react-query';
import { useState, type RefObject } from 'react';
import { NOTE_MESSAGES } from '../../../../../shared/notes/note-constants.js';
import { RX_MESSAGES } from '../../../../../shared/notes/rx.js';
import { unconfirmedVitals, type VitalFinding } from '../../../../../shared/notes/vitals-ranges.js';
import { saveProblem } from '../lib/save-problem.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { isApiError } from '../../../lib/api-error.js';
import { showToast, toastQueue, withServerText } from '../../../lib/toasts.js';
import { fetchNote, noteKeys, notesApi } from '../api/notes-api.js';
import { restockInventoryItem } from '../api/sales-api.js';
import type { EditorValue, NoteEditorHandle } from '../editor/note-editor.js';
import { errorState, saveErrorMessage, type useNoteDraft } from '../lib/use-note-draft.js';
import { useNoteWindows } from './note-windows-context.js';

type NoteDraft = ReturnType<typeof useNoteDraft>;
type Busy = 'sign' | 'send' | 'lock' | 'addend' | 'delete' | 'reload';
export type NoteDialog = 'date' | 'assign' | 'delete';

interface Problem {
  message: string;
  fieldErrors: Record<string, string>;
}

export interface NoteActionsInput {
  note: Note;
  draft: NoteDraft;
  editorRef: RefObject<NoteEditorHandle | null>;
  addendumRef: RefObject<NoteEditorHandle | null>;
  patientDob: string | null;
  /** Spec notes §5: an email needs the patient's address ('Missing patient email address.'). */
  missingPatientEmail: boolean;
}

/**
 * What a note window does: save, sign, send, addend, lock, move to another patient, assign,
 * delete, and pick up the server's version after a 409. Each action says how it went in the
 * window's footer or a toast; a refused write never touches the text being edited.
 */
/** The browser's time zone: the signature line a template left is dated in it. */
const localTimeZone = (): string | undefined => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
};

/** A signed in-house prescription took its quantity from the inventory: deleting it may put it back. */
export const isDispensedRx = (note: Note): boolean => note.noteType === 'RX' && Boolean(note.signed) && typeof note.data.inventoryId === 'string';

/** Spec notes §7, §8: the deleted prescription's quantity goes back to its inventory item ('Interaction delete restock'). */
async function restockRx(noteId: string, data: Note['data']): Promise<void> {
  const quantity = Number(data.quantityPrescribed);
  const name = String(data.medicationName ?? 'the medication');
  const progress = showToast(RX_MESSAGES.restocking);
  try {
    await restockInventoryItem(String(data.inventoryId), quantity, RX_MESSAGES.restockReason, noteId);
    toastQueue.close(progress);
    showToast(RX_MESSAGES.restocked, { tone: 'success' });
  } catch {
    toastQueue.close(progress);
    showToast(RX_MESSAGES.restockFailed(name, quantity), { tone: 'error' });
  }
}

export function useNoteActions({ note, draft, editorRef, addendumRef, patientDob, missingPatientEmail }: NoteActionsInput) {
  const windows = useNoteWindows();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<NoteDialog | null>(null);
  const [busy, setBusy] = useState<Busy | null>(null);
  /** The server's version after a 409, shown before anything replaces the user's text. */
  const [latestVersion, setLatestVersion] = useState<Note | null>(null);
  /** Bumped when the text is replaced from the server, so the (uncontrolled) editor loads it. */
  const [editorGeneration, setEditorGeneration] = useState(0);
  const [addendum, setAddendum] = useState<EditorValue | null>(null);
  const [addending, setAddending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  /** Vitals outside the usual range, asked about before the save or signature that would record them. */
  const [confirming, setConfirming] = useState<{ findings: VitalFinding[]; then: 'save' | 'sign' } | null>(null);

  const problemNow = (): Problem | null => {
    editorRef.current?.flush();
    const current = draft.latest.current;
    return saveProblem({ noteType: note.noteType, patientId: current.patientId, data: current.data, files: note.files }, patientDob);
  };

  const refuse = (problem: Problem) => {
    setFieldErrors(problem.fieldErrors);
    // Said in the window's footer, next to Save and Sign, where a toast would cover the buttons.
    draft.setSaveState({ kind: 'error', message: problem.message });
  };

  const clearFieldError = (field: string) => setFieldErrors((errors) => ({ ...errors, [field]: '' }));

  /** Unusual vitals not yet confirmed at their value: asks, and the answer saves or signs. */
  const asksToConfirm = (then: 'save' | 'sign'): boolean => {
    if (note.noteType !== 'VITALS') return false;
    const findings = unconfirmedVitals(draft.latest.current.data);
    if (!findings.length) return false;
    setConfirming({ findings, then });
    return true;
  };

  const saveNow = async () => {
    const problem = problemNow();
    if (problem) return refuse(problem);
    if (asksToConfirm('save')) return;
    setFieldErrors({});
    await draft.save('manual');
  };

  const sign = async () => {
    const problem = problemNow();
    if (problem) return refuse(problem);
    if (asksToConfirm('sign')) return;
    setFieldErrors({});
    setBusy('sign');
    try {
      const saved = await draft.write(
        (noteVersion, current) =>
          notesApi.sign(note.noteId, {
            noteVersion,
            data: current.data,
            patientId: current.patientId,
            eventTimestamp: current.eventTimestamp,
            timeZone: localTimeZone(),
          }),
        true,
      );
      if (note.noteType === 'RX') {
        // A dispense moved the stock and added a chart medication; a POBAllReview signature sent it for approval instead.
        if (saved.status === 'DRAFT') showToast(RX_MESSAGES.sentForApproval, { tone: 'success' });
        void queryClient.invalidateQueries({ queryKey: ['sales', 'inventory'] });
        if (saved.patientId) void queryClient.invalidateQueries({ queryKey: ['patients', saved.patientId, 'medications'] });
      }
    } catch (error) {
      if (isApiError(error)) setFieldErrors(error.fieldErrors);
      // A safety warning the window had not shown yet (the chart changed since): check the drugs again.
      if (isApiError(error, 422) && note.patientId) void queryClient.invalidateQueries({ queryKey: ['patients', note.patientId, 'drug-safety'] });
      draft.setSaveState(errorState(error));
    } finally {
      setBusy(null);
    }
  };

  /** The clinician confirmed: the values are recorded as confirmed (kept on the note) and the save or signature goes on. */
  const confirmVitals = async () => {
    if (!confirming) return;
    const before = (draft.latest.current.data.confirmedVitals ?? {}) as Record<string, number>;
    draft.change({ data: { confirmedVitals: { ...before, ...Object.fromEntries(confirming.findings.map((f) => [f.key, f.value])) } } });
    const then = confirming.then;
    setConfirming(null);
    await (then === 'save' ? saveNow() : sign());
  };

  const send = async () => {
    const problem = problemNow();
    if (problem) return refuse(problem);
    if (missingPatientEmail) return refuse({ message: NOTE_MESSAGES.missingPatientEmail, fieldErrors: { to: NOTE_MESSAGES.missingPatientEmail } });
    setBusy('send');
    try {
      const saved = await draft.save('manual');
      if (!saved) return;
      await draft.write((noteVersion) => notesApi.send(note.noteId, noteVersion), false);
      showToast(NOTE_MESSAGES.emailSent, { tone: 'success' });
    } catch (error) {
      if (isApiError(error)) setFieldErrors(error.fieldErrors);
      // A refused send was undone on the server (new version, same text): pick that version up.
      if (isApiError(error) && error.status >= 500) void queryClient.invalidateQueries({ queryKey: noteKeys.detail(note.noteId) });
      // Send messages are whole sentences that say what happened to the note; shown as the server wrote them.
      draft.setSaveState(errorState(error, isApiError(error) && error.status > 0 ? error.message : saveErrorMessage(error)));
    } finally {
      setBusy(null);
    }
  };

  const reload = async () => {
    editorRef.current?.flush();
    setBusy('reload');
    try {
      setLatestVersion(await fetchNote(note.noteId));
    } catch (error) {
      draft.setSaveState(errorState(error));
    } finally {
      setBusy(null);
    }
  };

  /** The server changed the note itself (a finished transcription): show its text and files as they are now. */
  const adoptServerNote = async () => {
    try {
      const server = await fetchNote(note.noteId);
      draft.reset(server);
      setEditorGeneration((g) => g + 1);
    } catch (error) {
      draft.setSaveState(errorState(error));
    }
  };

  const keepMine = () => {
    if (!latestVersion) return;
    draft.rebase(latestVersion);
    setLatestVersion(null);
  };

  const replaceMine = () => {
    if (!latestVersion) return;
    draft.reset(latestVersion);
    setFieldErrors({});
    setEditorGeneration((g) => g + 1);
    setLatestVersion(null);
  };

  const saveAddendum = async () => {
    const value = addendumRef.current?.flush() ?? addendum;
    if (!value || !value.text.trim()) return refuse({ message: NOTE_MESSAGES.emptyText, fieldErrors: {} });
    setBusy('addend');
    try {
      await draft.write(
        (noteVersion) => notesApi.addend(note.noteId, { noteVersion, text: value.text, formattedText: value.formattedText, timeZone: localTimeZone() }),
        false,
      );
      setAddending(false);
      setAddendum(null);
      draft.setSaveState({ kind: 'clean' });
    } catch (error) {
      draft.setSaveState(errorState(error));
    } finally {
      setBusy(null);
    }
  };

  const toggleLock = async () => {
    setBusy('lock');
    try {
      await draft.write((noteVersion) => notesApi.toggleAccess(note.noteId, noteVersion), false);
    } catch (error) {
      showToast(saveErrorMessage(error), { tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const changePatient = async (patientId: string, name: string) => {
    try {
      await draft.write((noteVersion) => notesApi.changePatient(note.noteId, { noteVersion, patientId }), false);
      draft.adoptPatient(patientId);
      windows.describe({ noteId: note.noteId, patientId, noteType: note.noteType, patientName: name });
    } catch {
      showToast(NOTE_MESSAGES.changePatientError, { tone: 'error' });
    }
  };

  const remove = async (restock = false) => {
    setBusy('delete');
    const progress = showToast(NOTE_MESSAGES.deleteProgress);
    try {
      await notesApi.remove(note.noteId, draft.version.current);
      toastQueue.close(progress);
      showToast(NOTE_MESSAGES.deleteSuccess, { tone: 'success' });
      if (restock && isDispensedRx(note))
        void restockRx(note.noteId, note.data).then(() => queryClient.invalidateQueries({ queryKey: ['sales', 'inventory'] }));
      // The server removed the prescription's chart medication with the note.
      if ((note.noteType === 'RX' || note.noteType === 'RX_DOSESPOT') && note.patientId)
        void queryClient.invalidateQueries({ queryKey: ['patients', note.patientId, 'medications'] });
      setDialog(null);
      windows.close(note.noteId);
      queryClient.removeQueries({ queryKey: noteKeys.detail(note.noteId) });
      void queryClient.invalidateQueries({ queryKey: noteKeys.timelines() });
    } catch (error) {
      toastQueue.close(progress);
      showToast(withServerText(NOTE_MESSAGES.deleteError, error), { tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const assign = async (userId: string | null, name: string) => {
    if (!userId) return showToast(NOTE_MESSAGES.assignUserRequired, { tone: 'error' });
    setDialog(null);
    const progress = showToast(NOTE_MESSAGES.assignProgress(name));
    try {
      await notesApi.assign(note.noteId, userId);
      toastQueue.close(progress);
      showToast(NOTE_MESSAGES.assignSuccess(name), { tone: 'success' });
    } catch (error) {
      toastQueue.close(progress);
      showToast(withServerText(NOTE_MESSAGES.assignError, error), { tone: 'error' });
    }
  };

  /** The editor's text goes along even when untouched: a document may be files only. */
  const attachFile = async (file: Note['files'][number]) => {
    const value = editorRef.current?.flush();
    if (value) draft.change({ data: { text: value.text, formattedText: value.formattedText } });
    await draft.write(
      (noteVersion, current) =>
        notesApi.saveDraft(note.noteId, {
          noteVersion,
          data: current.data,
          patientId: current.patientId,
          eventTimestamp: current.eventTimestamp,
          files: [...note.files, file],
        }),
      true,
    );
  };

  return {
    state: { dialog, busy, latestVersion, editorGeneration, addending, fieldErrors, confirming },
    setConfirming,
    confirmVitals,
    setDialog,
    setAddending,
    setAddendum,
    setLatestVersion,
    clearFieldError,
    saveNow,
    sign,
    send,
    reload,
    adoptServerNote,
    keepMine,
    replaceMine,
    saveAddendum,
    toggleLock,
    changePatient,
    remove,
    assign,
    attachFile,
  };
}
