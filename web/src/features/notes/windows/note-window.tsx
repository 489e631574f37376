import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { isEditableStatus, isSignedStatus, NOTE_MESSAGES } from '../../../../../shared/notes/note-constants.js';
import { noteSaveProblem } from '../../../../../shared/notes/note-rules.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import type { VitalsKey } from '../../../../../shared/notes/vitals.js';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { Patient } from '../../../../../shared/patients/patient-schema.js';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { CloseIcon } from '../../../components/ui/icons.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';
import { useCan } from '../../../lib/permissions.js';
import { showToast, toastQueue } from '../../../lib/toasts.js';
import { fetchNote, noteKeys, notesApi, useNote } from '../api/notes-api.js';
import { AssignDraftDialog, LatestVersionDialog, NoteDateDialog } from '../components/note-dialogs.js';
import { formatDateTime, NoteHeader } from '../components/note-header.js';
import { PatientPicker } from '../components/patient-picker.js';
import { NoteFiles } from '../components/note-files.js';
import { NoteAddenda } from '../components/signed-note-body.js';
import { VitalsForm } from '../components/vitals-form.js';
import { NoteEditor, type EditorValue, type NoteEditorHandle } from '../editor/note-editor.js';
import { errorState, saveErrorMessage, useNoteDraft, type SaveState } from '../lib/use-note-draft.js';
import { NOTE_TYPE_LABEL } from '../note-types.js';
import type { NoteStage, NoteWindowEntry } from './note-window-state.js';
import { useNoteWindows } from './note-windows-context.js';


function usePatientBrief(patientId: string | null) {
  return useQuery({
    queryKey: ['notes', 'patient', patientId],
    queryFn: async ({ signal }) => Patient.parse(await apiRequest<unknown>({ path: `/v1/patients/${encodeURIComponent(patientId ?? '')}`, signal })),
    enabled: Boolean(patientId),
    staleTime: 60_000,
  });
}

export interface NoteWindowProps {
  entry: NoteWindowEntry;
  /** Below 767 px every note is fullscreen (spec notes §2). */
  mobile: boolean;
}

/** One floating note window: loads the note, then hands it to the workspace that edits it. */
export function NoteWindow({ entry, mobile }: NoteWindowProps) {
  const note = useNote(entry.noteId);
  const titleId = useId();
  const windows = useNoteWindows();
  const fullscreen = mobile || entry.stage === 'fullscreen';
  const className = ['tw-note-window', fullscreen ? 'tw-note-window--fullscreen' : ''].filter(Boolean).join(' ');

  return (
    <section className={className} role="dialog" aria-modal="false" aria-labelledby={titleId} hidden={entry.stage === 'minimized'} data-note-id={entry.noteId}>
      {note.isSuccess ? (
        <NoteWorkspace note={note.data} entry={entry} titleId={titleId} mobile={mobile} />
      ) : (
        <>
          <header className="tw-note-window__header">
            <h2 id={titleId} className="tw-note-window__heading">
              {NOTE_TYPE_LABEL[entry.noteType]}
            </h2>
            <AriaButton className="tw-icon-button" aria-label="Close note" onPress={() => windows.close(entry.noteId)}>
              <CloseIcon />
            </AriaButton>
          </header>
          <div className="tw-note-window__body">
            {note.isPending ? <Spinner label="Loading note" /> : <p className="tw-note-window__error">{isApiError(note.error, 404) ? NOTE_MESSAGES.notFound : note.error.message}</p>}
          </div>
        </>
      )}
    </section>
  );
}

function SaveStatus({ state, onReload, reloading }: { state: SaveState; onReload: () => void; reloading: boolean }) {
  const text =
    state.kind === 'saving'
      ? 'Saving…'
      : state.kind === 'saved'
        ? `Saved ${state.at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}`
        : state.kind === 'dirty'
          ? 'Unsaved changes'
          : state.kind === 'blocked' || state.kind === 'error'
            ? state.message
            : '';
  const tone = state.kind === 'error' ? 'error' : state.kind === 'blocked' ? 'warning' : 'muted';
  return (
    <>
      <p className={`tw-note-save-state tw-note-save-state--${tone}`} role={state.kind === 'error' ? 'alert' : 'status'} aria-live="polite">
        {text}
      </p>
      {/* Spec notes §2: an error shows its text with a Reload button when a retry exists. */}
      {state.kind === 'error' && state.stale ? (
        <Button size="sm" className="tw-note-save-state__reload" onPress={onReload} isPending={reloading}>
          Reload
        </Button>
      ) : null}
    </>
  );
}

function NoteWorkspace({ note, entry, titleId, mobile }: { note: Note; entry: NoteWindowEntry; titleId: string; mobile: boolean }) {
  const windows = useNoteWindows();
  const queryClient = useQueryClient();
  const dobRef = useRef<string | null>(null);
  const draft = useNoteDraft(note, dobRef, (dirty) => windows.setDirty(note.noteId, dirty));
  const patient = usePatientBrief(draft.snapshot.patientId);
  dobRef.current = patient.data?.dob ?? null;
  const patientName = patient.data ? fullNameWithAge(patient.data) : (entry.patientName ?? '');
  const editorRef = useRef<NoteEditorHandle>(null);
  const addendumRef = useRef<NoteEditorHandle>(null);
  const [menuHidden, setMenuHidden] = useState(false);
  const [dialog, setDialog] = useState<'date' | 'assign' | 'delete' | null>(null);
  const [busy, setBusy] = useState<'sign' | 'send' | 'lock' | 'addend' | 'delete' | 'reload' | null>(null);
  /** The server's version after a 409, shown before anything replaces the user's text. */
  const [latestVersion, setLatestVersion] = useState<Note | null>(null);
  /** Bumped when the text is replaced from the server, so the (uncontrolled) editor loads it. */
  const [editorGeneration, setEditorGeneration] = useState(0);
  const [addendum, setAddendum] = useState<EditorValue | null>(null);
  const [addending, setAddending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const editable = isEditableStatus(note.status) || (note.noteType === 'SMS_LOG' && note.status === 'DELIVERED' && !note.signed);
  const signed = isSignedStatus(note.status);
  const mayDeleteSigned = useCan('note.signed.delete', { authorUserId: note.author.userId, onBehalfOf: note.onBehalfOf });
  const isEmail = note.noteType === 'EMAIL';
  const signable = editable && !isEmail && note.noteType !== 'SMS_LOG' && note.noteType !== 'STICKY';
  const dob = patient.data?.dob ?? null;
  // Spec notes §5: an email needs the patient's address ('Missing patient email address.').
  const missingPatientEmail = isEmail && Boolean(patient.data) && !patient.data?.email?.trim() && !draft.snapshot.data.to?.trim();

  useEffect(() => {
    windows.describe({ noteId: note.noteId, patientId: draft.snapshot.patientId, noteType: note.noteType, patientName });
  }, [windows, note.noteId, note.noteType, draft.snapshot.patientId, patientName]);

  const onStage = (stage: NoteStage) => {
    // Minimizing keeps the window mounted, so nothing typed is lost; flush the editor anyway.
    editorRef.current?.flush();
    windows.setStage(note.noteId, stage);
  };

  const problemNow = () => {
    editorRef.current?.flush();
    const current = draft.latest.current;
    return noteSaveProblem({ noteType: note.noteType, patientId: current.patientId, data: current.data, files: note.files }, dob);
  };

  const refuse = (problem: { message: string; fieldErrors: Record<string, string> }) => {
    setFieldErrors(problem.fieldErrors);
    // Said in the window's footer, next to Save and Sign, where a toast would cover the buttons.
    draft.setSaveState({ kind: 'error', message: problem.message });
  };

  const saveNow = async () => {
    const problem = problemNow();
    if (problem) return refuse(problem);
    setFieldErrors({});
    await draft.save('manual');
  };

  const sign = async () => {
    const problem = problemNow();
    if (problem) return refuse(problem);
    setFieldErrors({});
    setBusy('sign');
    try {
      await draft.write(
        (noteVersion, current) => notesApi.sign(note.noteId, { noteVersion, data: current.data, patientId: current.patientId, eventTimestamp: current.eventTimestamp }),
        true,
      );
    } catch (error) {
      draft.setSaveState(errorState(error));
    } finally {
      setBusy(null);
    }
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
      await draft.write((noteVersion) => notesApi.addend(note.noteId, { noteVersion, text: value.text, formattedText: value.formattedText }), false);
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

  const remove = async () => {
    setBusy('delete');
    const progress = showToast(NOTE_MESSAGES.deleteProgress);
    try {
      await notesApi.remove(note.noteId, draft.version.current);
      toastQueue.close(progress);
      showToast(NOTE_MESSAGES.deleteSuccess, { tone: 'success' });
      setDialog(null);
      windows.close(note.noteId);
      queryClient.removeQueries({ queryKey: noteKeys.detail(note.noteId) });
      void queryClient.invalidateQueries({ queryKey: noteKeys.timelines() });
    } catch {
      toastQueue.close(progress);
      showToast(NOTE_MESSAGES.deleteError, { tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const assign = async (userId: string | null) => {
    if (!userId) return showToast(NOTE_MESSAGES.assignUserRequired, { tone: 'error' });
    setDialog(null);
    const progress = showToast(NOTE_MESSAGES.assignProgress);
    try {
      await notesApi.assign(note.noteId, userId);
      toastQueue.close(progress);
      showToast(NOTE_MESSAGES.assignSuccess, { tone: 'success' });
    } catch {
      toastQueue.close(progress);
      showToast(NOTE_MESSAGES.assignError, { tone: 'error' });
    }
  };

  const data = draft.snapshot.data;
  const templateContext = draft.snapshot.patientId ? { patientId: draft.snapshot.patientId, noteId: note.noteId } : null;
  const onEditorChange = (value: EditorValue) => draft.change({ data: { text: value.text, formattedText: value.formattedText } });

  return (
    <>
      <NoteHeader
        note={note}
        titleId={titleId}
        patientName={patientName}
        stage={entry.stage}
        fullscreenOnly={mobile}
        onStage={onStage}
        onClose={() => {
          editorRef.current?.flush();
          windows.requestClose(note.noteId);
        }}
        onToggleLock={() => void toggleLock()}
        lockPending={busy === 'lock'}
        menuHidden={menuHidden}
        canChangeDate={editable}
        canDelete={!(signed || note.signed) || mayDeleteSigned}
        onMenuAction={(action) => {
          if (action === 'toggle-menu') setMenuHidden((hidden) => !hidden);
          else setDialog(action);
        }}
      />
      {menuHidden ? null : (
        <div className="tw-note-window__toolbar">
          <PatientPicker key={draft.snapshot.patientId ?? 'none'} patientName={patientName} isDisabled={!editable} onChange={(id, name) => void changePatient(id, name)} />
          <span className="tw-note-window__date">Date {formatDateTime(draft.snapshot.eventTimestamp)}</span>
          <span className="tw-note-window__author">By {note.author.name}</span>
        </div>
      )}

      <div className="tw-note-window__body">
        {isEmail ? (
          <div className="tw-email-fields">
            <label className="tw-field">
              <span className="tw-field__label">
                Subject<span className="tw-field__required" aria-hidden="true"> *</span>
              </span>
              <input
                className="tw-field__input"
                required
                readOnly={!editable}
                value={typeof data.subject === 'string' ? data.subject : ''}
                aria-invalid={fieldErrors.subject ? true : undefined}
                onChange={(e) => {
                  setFieldErrors((errors) => ({ ...errors, subject: '' }));
                  draft.change({ data: { subject: e.target.value } });
                }}
              />
              {fieldErrors.subject ? <span className="tw-field__error">{fieldErrors.subject}</span> : null}
            </label>
            <label className="tw-field">
              <span className="tw-field__label">To</span>
              <input
                className="tw-field__input"
                readOnly
                value={data.to ?? ''}
                aria-invalid={fieldErrors.to || (editable && missingPatientEmail) ? true : undefined}
              />
              {fieldErrors.to || (editable && missingPatientEmail) ? <span className="tw-field__error">{fieldErrors.to || NOTE_MESSAGES.missingPatientEmail}</span> : null}
            </label>
            <label className="tw-field">
              <span className="tw-field__label">From</span>
              <input className="tw-field__input" readOnly value={data.from ?? ''} />
            </label>
          </div>
        ) : null}

        {note.noteType === 'VITALS' ? (
          <VitalsForm
            values={data as Partial<Record<VitalsKey, unknown>>}
            patientDob={dob}
            isReadOnly={!editable}
            fieldErrors={fieldErrors}
            onChange={(key, value) => {
              setFieldErrors((errors) => ({ ...errors, [key]: '' }));
              draft.change({ data: { [key]: value } });
            }}
          />
        ) : (
          <NoteEditor
            key={`text-${editorGeneration}`}
            ref={editorRef}
            ariaLabel={`${NOTE_TYPE_LABEL[note.noteType]} text`}
            initialHtml={data.formattedText ?? data.text ?? ''}
            onChange={onEditorChange}
            readOnly={!editable}
            compact={note.noteType === 'STICKY'}
            templateContext={editable ? templateContext : null}
          />
        )}

        {note.noteType === 'DOCUMENT' ? (
          <NoteFiles
            files={note.files}
            folder={`${draft.snapshot.patientId ?? 'unassigned'}/notes/${note.noteId}`}
            editable={editable}
            onAttached={async (file) => {
              // The editor's text goes along even when untouched: a document may be files only.
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
            }}
          />
        ) : null}
        {signed ? <NoteAddenda note={note} /> : null}
        {addending ? (
          <div className="tw-note-addend">
            <span className="tw-field__label">Addendum</span>
            <NoteEditor ref={addendumRef} ariaLabel="Addendum text" initialHtml="" onChange={setAddendum} compact />
          </div>
        ) : null}
      </div>

      <footer className="tw-note-window__footer">
        <SaveStatus state={draft.saveState} onReload={() => void reload()} reloading={busy === 'reload'} />
        <div className="tw-note-window__actions">
          {editable ? (
            <Button size="sm" onPress={() => void saveNow()} isPending={draft.saveState.kind === 'saving'}>
              Save
            </Button>
          ) : null}
          {signable ? (
            <Button size="sm" variant="primary" onPress={() => void sign()} isPending={busy === 'sign'}>
              Sign
            </Button>
          ) : null}
          {isEmail && editable ? (
            <Button size="sm" variant="primary" onPress={() => void send()} isPending={busy === 'send'}>
              Send
            </Button>
          ) : null}
          {signed && !addending ? (
            <Button size="sm" onPress={() => setAddending(true)}>
              Addend
            </Button>
          ) : null}
          {addending ? (
            <>
              <Button size="sm" onPress={() => setAddending(false)}>
                Cancel
              </Button>
              <Button size="sm" variant="primary" onPress={() => void saveAddendum()} isPending={busy === 'addend'}>
                Save addendum
              </Button>
            </>
          ) : null}
        </div>
      </footer>

      {dialog === 'date' ? (
        <NoteDateDialog
          isOpen
          value={draft.snapshot.eventTimestamp}
          onClose={() => setDialog(null)}
          onSave={(iso) => {
            setDialog(null);
            draft.change({ eventTimestamp: iso });
          }}
        />
      ) : null}
      {latestVersion ? (
        <LatestVersionDialog
          isOpen
          latest={latestVersion}
          canKeepMine={isEditableStatus(latestVersion.status) || (latestVersion.noteType === 'SMS_LOG' && latestVersion.status === 'DELIVERED' && !latestVersion.signed)}
          onClose={() => setLatestVersion(null)}
          onKeepMine={keepMine}
          onReplace={replaceMine}
        />
      ) : null}
      {dialog === 'assign' ? <AssignDraftDialog isOpen onClose={() => setDialog(null)} onAssign={(userId) => void assign(userId)} /> : null}
      <ConfirmDialog
        isOpen={dialog === 'delete'}
        onOpenChange={(open) => setDialog(open ? 'delete' : null)}
        title="Delete this note?"
        confirmLabel="Delete"
        tone="danger"
        isPending={busy === 'delete'}
        onConfirm={() => void remove()}
      >
        This {NOTE_TYPE_LABEL[note.noteType].toLowerCase()}
        {patientName ? ` for ${patientName}` : ''} will be deleted.
      </ConfirmDialog>
    </>
  );
}
