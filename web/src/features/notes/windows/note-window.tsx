import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { useNavigate } from 'react-router-dom';
import { isSignedStatus, NOTE_MESSAGES } from '../../../../../shared/notes/note-constants.js';
import { canEditNote } from '../../../../../shared/notes/note-rules.js';
import { isExternalNoteType } from '../../../../../shared/partners/partner-schema.js';
import { RX_MESSAGES } from '../../../../../shared/notes/rx.js';
import type { SaleLine } from '../../../../../shared/sales/sales-schema.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import type { VitalsKey } from '../../../../../shared/notes/vitals.js';
import { VITALS_RANGE_MESSAGES } from '../../../../../shared/notes/vitals-ranges.js';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { PatientPicker } from '../../../components/patient-picker.js';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { CloseIcon } from '../../../components/ui/icons.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { isApiError } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { registerDraftSaver } from '../../../lib/save-before-sign-out.js';
import { usePatient } from '../../../lib/patients.js';
import { useCan } from '../../../lib/permissions.js';
import { useNote } from '../api/notes-api.js';
import { EmailFields } from '../components/email-fields.js';
import { AssignDraftDialog, LatestVersionDialog, NoteDateDialog } from '../components/note-dialogs.js';
import { formatDateTime, NoteHeader } from '../components/note-header.js';
import { NoteFiles } from '../components/note-files.js';
import { NoteSaveStatus } from '../components/note-save-status.js';
import { NoteAddenda } from '../components/signed-note-body.js';
import { ExternalNoteView } from '../components/external-note-view.js';
import { FilePreview } from '../../../components/files/file-preview.js';
import { PartnerNoteView } from '../components/partner-note-view.js';
import { RxForm } from '../components/rx-form.js';
import { SalesForm } from '../components/sales-form.js';
import { SmsNoteView } from '../components/sms-note-view.js';
import { VitalsForm } from '../components/vitals-form.js';
import { NoteEditor, type EditorValue, type NoteEditorHandle } from '../editor/note-editor.js';
import { useNoteDraft } from '../lib/use-note-draft.js';
import { NOTE_TYPE_LABEL } from '../note-types.js';
import type { NoteStage, NoteWindowEntry } from './note-window-state.js';
import { NoteExtras, type NoteExtrasProps } from './note-extras.js';
import { useNoteWindows } from './note-windows-context.js';
import { useFocusOnOpen } from './use-focus-on-open.js';
import { isDispensedRx, useNoteActions } from './use-note-actions.js';

/** A lab note's order form and results load with the first lab note opened. */
const LabNoteView = lazy(() => import('../components/lab-note-view.js'));
/** A form note's send form, answers and Add to Health Summary load with the first form note opened. */
const FormNoteView = lazy(() => import('../components/form-note-view.js'));

/** The empty editor's hint: '/' offers the practice's templates once the note has a patient. */
export const EDITOR_PLACEHOLDER = 'Start typing, or type / to insert a template';
const EDITOR_PLACEHOLDER_NO_PATIENT = 'Start typing. Choose a patient to insert templates with /';

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
  /** How this window closes: the workspace flushes the editor first, so the unsaved-changes question sees the last keystroke. */
  const closeRef = useRef<() => void>(() => windows.requestClose(entry.noteId));
  // Escape closes the window it was pressed in. Menus, pickers and dialogs inside it stop their own
  // Escape; those in a popover are outside the window's DOM (React still bubbles them here).
  // The editor marks Escape as handled though it does nothing with it, so that mark is not asked.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
    if (!(event.target instanceof Node) || !event.currentTarget.contains(event.target)) return;
    event.preventDefault();
    closeRef.current();
  };
  const className = ['tw-note-window', fullscreen ? 'tw-note-window--fullscreen' : ''].filter(Boolean).join(' ');

  return (
    <section
      className={className}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      hidden={entry.stage === 'minimized'}
      data-note-id={entry.noteId}
      onKeyDown={onKeyDown}
    >
      {note.isSuccess ? (
        <NoteWorkspace note={note.data} entry={entry} titleId={titleId} mobile={mobile} closeRef={closeRef} />
      ) : (
        <>
          <div className="tw-note-window__header">
            <h2 id={titleId} className="tw-note-window__heading">
              {NOTE_TYPE_LABEL[entry.noteType]}
            </h2>
            <AriaButton className="tw-icon-button" aria-label="Close note" onPress={() => windows.close(entry.noteId)}>
              <CloseIcon />
            </AriaButton>
          </div>
          <div className="tw-note-window__body">
            {note.isPending ? (
              <Spinner label="Loading note" />
            ) : (
              <p className="tw-note-window__error">{isApiError(note.error, 404) ? NOTE_MESSAGES.notFound : note.error.message}</p>
            )}
          </div>
        </>
      )}
    </section>
  );
}

interface NoteWorkspaceProps {
  note: Note;
  entry: NoteWindowEntry;
  titleId: string;
  mobile: boolean;
  closeRef: RefObject<() => void>;
}

function NoteWorkspace({ note, entry, titleId, mobile, closeRef }: NoteWorkspaceProps) {
  const windows = useNoteWindows();
  const dobRef = useRef<string | null>(null);
  const draft = useNoteDraft(note, dobRef, (dirty) => windows.setDirty(note.noteId, dirty));
  const patient = usePatient(draft.snapshot.patientId);
  dobRef.current = patient.data?.dob ?? null;
  const patientName = patient.data ? fullNameWithAge(patient.data) : (entry.patientName ?? '');
  const editorRef = useRef<NoteEditorHandle>(null);
  const addendumRef = useRef<NoteEditorHandle>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [menuHidden, setMenuHidden] = useState(false);

  // A partner's window and an outside system's note hold no text of the user's: nothing to save or sign.
  const partner = note.noteType === 'PARTNER';
  const external = isExternalNoteType(note.noteType);
  // A fax is a record of what was sent or received: it opens read-only, with its PDF.
  const editable = canEditNote(note) && !partner && !external && note.noteType !== 'FAX';
  const signed = isSignedStatus(note.status);
  const navigate = useNavigate();
  const mayDeleteSigned = useCan('note.signed.delete', { authorUserId: note.author.userId, onBehalfOf: note.onBehalfOf });
  const isEmail = note.noteType === 'EMAIL';
  // A lab note is ordered, not saved or signed: the lab's results are its content.
  // A form note is sent and then filled in by the patient: the same holds for it.
  const lab = note.noteType === 'LAB' || note.noteType === 'FORM';
  const signable = editable && !isEmail && !lab && note.noteType !== 'SMS_LOG' && note.noteType !== 'STICKY';
  const dob = patient.data?.dob ?? null;
  // Spec notes §5: an email needs the patient's address ('Missing patient email address.').
  const missingPatientEmail = isEmail && Boolean(patient.data) && !patient.data?.email?.trim() && !draft.snapshot.data.to?.trim();
  const actions = useNoteActions({ note, draft, editorRef, addendumRef, patientDob: dob, missingPatientEmail });
  const { dialog, busy, latestVersion, editorGeneration, addending, fieldErrors } = actions.state;
  // Spec notes §4: deleting a dispensed prescription offers to put its quantity back (on by default).
  const dispensed = isDispensedRx(note);
  const [restock, setRestock] = useState(true);

  useEffect(() => {
    windows.describe({ noteId: note.noteId, patientId: draft.snapshot.patientId, noteType: note.noteType, patientName });
  }, [windows, note.noteId, note.noteType, draft.snapshot.patientId, patientName]);

  useFocusOnOpen({ editable, noteType: note.noteType, titleId, editorRef, bodyRef });

  // Someone else signing in at the locked screen: what this window holds is saved as a draft first.
  const saveDraftRef = useRef(async () => {});
  saveDraftRef.current = async () => {
    if (!editable) return;
    editorRef.current?.flush();
    await draft.save('auto');
  };
  useEffect(() => registerDraftSaver(() => saveDraftRef.current()), []);

  const requestClose = () => {
    editorRef.current?.flush();
    windows.requestClose(note.noteId);
  };
  useEffect(() => {
    closeRef.current = requestClose;
  });

  const onStage = (stage: NoteStage) => {
    // Minimizing keeps the window mounted, so nothing typed is lost; flush the editor anyway.
    editorRef.current?.flush();
    windows.setStage(note.noteId, stage);
  };

  const data = draft.snapshot.data;
  const templateContext = draft.snapshot.patientId ? { patientId: draft.snapshot.patientId, noteId: note.noteId } : null;
  const extras: Omit<NoteExtrasProps, 'placement'> = {
    note,
    patientId: draft.snapshot.patientId,
    editable,
    flushEdits: async () => {
      editorRef.current?.flush();
      await draft.save('auto');
    },
    adoptServerNote: actions.adoptServerNote,
  };
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
        onClose={requestClose}
        onToggleLock={() => void actions.toggleLock()}
        lockPending={busy === 'lock'}
        menuHidden={menuHidden}
        canChangeDate={editable}
        canDelete={!(signed || note.signed) || mayDeleteSigned}
        canFax={signed && Boolean(draft.snapshot.patientId) && note.noteType !== 'FAX'}
        onMenuAction={(action) => {
          if (action === 'fax') void navigate(paths.newFax({ patientId: draft.snapshot.patientId, noteId: note.noteId }));
          else if (action === 'toggle-menu') setMenuHidden((hidden) => !hidden);
          else actions.setDialog(action);
        }}
      />
      {menuHidden ? null : (
        <div className="tw-note-window__toolbar">
          <PatientPicker
            key={draft.snapshot.patientId ?? 'none'}
            variant="inline"
            className="tw-note-patient"
            placeholder="Search patient"
            value={draft.snapshot.patientId}
            valueLabel={patientName}
            isDisabled={!editable}
            onChange={(id, name) => (id ? void actions.changePatient(id, name) : undefined)}
          />
          <span className="tw-note-window__date">Date {formatDateTime(draft.snapshot.eventTimestamp)}</span>
          <span className="tw-note-window__author">By {note.author.name}</span>
        </div>
      )}

      {/* A read-only note (a fax's pages, a long signed note) can scroll with nothing in it to tab to: its body takes focus so the keyboard scrolls it. */}
      <div
        className="tw-note-window__body"
        ref={bodyRef}
        {...(editable ? {} : { tabIndex: 0, role: 'region', 'aria-label': `${NOTE_TYPE_LABEL[note.noteType]} content` })}
      >
        <NoteExtras {...extras} placement="top" />
        {isEmail ? (
          <EmailFields
            subject={typeof data.subject === 'string' ? data.subject : ''}
            to={data.to ?? ''}
            from={data.from ?? ''}
            editable={editable}
            missingPatientEmail={missingPatientEmail}
            fieldErrors={fieldErrors}
            onSubjectChange={(subject) => {
              actions.clearFieldError('subject');
              draft.change({ data: { subject } });
            }}
          />
        ) : null}

        {partner ? (
          <PartnerNoteView note={note} onClose={() => windows.close(note.noteId)} />
        ) : external ? (
          <ExternalNoteView note={note} />
        ) : note.noteType === 'SALES' ? (
          <SalesForm
            items={Array.isArray(data.items) ? (data.items as SaleLine[]) : []}
            editable={editable}
            error={fieldErrors.items}
            onChange={(items) => {
              actions.clearFieldError('items');
              draft.change({ data: { items } });
            }}
            patientId={draft.snapshot.patientId}
            override={(editable ? data : note.data).safetyOverride as { reason?: string } | undefined}
            overrideError={fieldErrors.safetyOverride}
            onOverrideChange={(reason) => {
              actions.clearFieldError('safetyOverride');
              draft.change({ data: { safetyOverride: { reason } } });
            }}
          />
        ) : note.noteType === 'RX' ? (
          <RxForm
            noteId={note.noteId}
            // Signed, the server's record counts: it filled in the medication, NDC, prescriber and prices.
            data={editable ? data : note.data}
            patient={patient.data}
            editable={editable}
            fieldErrors={fieldErrors}
            onChange={(changes) => {
              for (const key of Object.keys(changes)) actions.clearFieldError(key);
              draft.change({ data: changes });
            }}
          />
        ) : note.noteType === 'FORM' ? (
          <Suspense fallback={<Spinner label="Loading form" />}>
            <FormNoteView note={note} editable={editable} />
          </Suspense>
        ) : lab ? (
          <Suspense fallback={<Spinner label="Loading lab" />}>
            <LabNoteView note={note} editable={editable} />
          </Suspense>
        ) : note.noteType === 'SMS' ? (
          <SmsNoteView note={note} />
        ) : note.noteType === 'VITALS' ? (
          <VitalsForm
            values={data as Partial<Record<VitalsKey, unknown>>}
            patientDob={dob}
            isReadOnly={!editable}
            fieldErrors={fieldErrors}
            onChange={(key, value) => {
              actions.clearFieldError(key);
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
            placeholder={templateContext ? EDITOR_PLACEHOLDER : EDITOR_PLACEHOLDER_NO_PATIENT}
          />
        )}

        {(note.noteType === 'FAX' || note.noteType === 'PHONE_CALL') && note.files.length ? (
          <section className="tw-note-recording" aria-label={note.noteType === 'FAX' ? 'Faxed pages' : 'Voicemail'}>
            {note.files.map((file) => (
              <FilePreview key={file.key} fileKey={file.key} name={file.name} />
            ))}
          </section>
        ) : null}
        {note.noteType === 'DOCUMENT' ? (
          <NoteFiles
            files={note.files}
            folder={`${draft.snapshot.patientId ?? 'unassigned'}/notes/${note.noteId}`}
            editable={editable}
            onAttached={actions.attachFile}
          />
        ) : null}
        <NoteExtras {...extras} placement="bottom" />
        {signed ? <NoteAddenda note={note} /> : null}
        {addending ? (
          <div className="tw-note-addend">
            <span className="tw-field__label">Addendum</span>
            <NoteEditor ref={addendumRef} ariaLabel="Addendum text" initialHtml="" onChange={actions.setAddendum} compact />
          </div>
        ) : null}
      </div>

      <div className="tw-note-window__footer">
        <NoteSaveStatus state={draft.saveState} onReload={() => void actions.reload()} reloading={busy === 'reload'} />
        <div className="tw-note-window__actions">
          {editable && !lab ? (
            <Button size="sm" onPress={() => void actions.saveNow()} isPending={draft.saveState.kind === 'saving'}>
              Save
            </Button>
          ) : null}
          {signable ? (
            <Button size="sm" variant="primary" onPress={() => void actions.sign()} isPending={busy === 'sign'}>
              Sign
            </Button>
          ) : null}
          {isEmail && editable ? (
            <Button size="sm" variant="primary" onPress={() => void actions.send()} isPending={busy === 'send'}>
              Send
            </Button>
          ) : null}
          {signed && !addending && !external && !lab && note.noteType !== 'SALES' && note.noteType !== 'RX' ? (
            <Button size="sm" onPress={() => actions.setAddending(true)}>
              Addend
            </Button>
          ) : null}
          {addending ? (
            <>
              <Button size="sm" onPress={() => actions.setAddending(false)}>
                Cancel
              </Button>
              <Button size="sm" variant="primary" onPress={() => void actions.saveAddendum()} isPending={busy === 'addend'}>
                Save addendum
              </Button>
            </>
          ) : null}
        </div>
      </div>

      {dialog === 'date' ? (
        <NoteDateDialog
          isOpen
          value={draft.snapshot.eventTimestamp}
          onClose={() => actions.setDialog(null)}
          onSave={(iso) => {
            actions.setDialog(null);
            draft.change({ eventTimestamp: iso });
          }}
        />
      ) : null}
      {latestVersion ? (
        <LatestVersionDialog
          isOpen
          latest={latestVersion}
          canKeepMine={canEditNote(latestVersion)}
          onClose={() => actions.setLatestVersion(null)}
          onKeepMine={actions.keepMine}
          onReplace={actions.replaceMine}
        />
      ) : null}
      <ConfirmDialog
        isOpen={actions.state.confirming !== null}
        onOpenChange={(open) => {
          if (!open) actions.setConfirming(null);
        }}
        title={actions.state.confirming?.findings.length === 1 ? 'Confirm this vital sign' : 'Confirm these vital signs'}
        confirmLabel={actions.state.confirming?.then === 'sign' ? 'Sign anyway' : 'Save anyway'}
        onConfirm={() => void actions.confirmVitals()}
      >
        {actions.state.confirming?.findings.map((f) => (
          <p key={f.key}>{f.message}</p>
        ))}
        <p>{VITALS_RANGE_MESSAGES.confirmQuestion(actions.state.confirming?.then ?? 'save')}</p>
      </ConfirmDialog>
      {dialog === 'assign' ? (
        <AssignDraftDialog isOpen onClose={() => actions.setDialog(null)} onAssign={(userId, name) => void actions.assign(userId, name)} />
      ) : null}
      <ConfirmDialog
        isOpen={dialog === 'delete'}
        onOpenChange={(open) => actions.setDialog(open ? 'delete' : null)}
        title="Delete this note?"
        confirmLabel="Delete"
        tone="danger"
        isPending={busy === 'delete'}
        onConfirm={() => void actions.remove(dispensed && restock)}
      >
        This {NOTE_TYPE_LABEL[note.noteType].toLowerCase()}
        {patientName ? ` for ${patientName}` : ''} will be deleted.
        {dispensed ? (
          <span className="tw-rx__restock">
            <Checkbox label={RX_MESSAGES.restockLabel} isSelected={restock} onChange={setRestock} />
          </span>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
