import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import {
  defaultMappingSection,
  FORM_MESSAGES,
  formStatusLabel,
  mappingErrors,
  type FormNoteData,
  type MappingSection,
  type SendMethod,
  type SubmissionQuestion,
} from '../../../../../shared/forms/forms.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { formatPhone } from '../../../../../shared/patients/phone.js';
import { MappingDialog } from '../../../components/form-mapping/mapping-dialog.js';
import { MappingTable } from '../../../components/form-mapping/mapping-table.js';
import { Button } from '../../../components/ui/button.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { showToast, withServerText } from '../../../lib/toasts.js';
import {
  fetchFormMapping,
  fetchForms,
  formKeys,
  intakeQSso,
  mapHealthHistory,
  resendForm,
  saveFormMapping,
  saveFormResponses,
  sendForm,
} from '../api/forms-api.js';
import { noteKeys } from '../api/notes-api.js';

const formatDate = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' }) : '—';

/** A FORM note (spec notes §2–§8): the form-send note until it is sent, then the form note. */
export default function FormNoteView({ note, editable }: { note: Note; editable: boolean }) {
  const data = note.data as unknown as Partial<FormNoteData>;
  if (data.imported) return <ImportedFormDetails note={note} />;
  if (!data.intakeId) return <FormSendForm note={note} editable={editable} />;
  return <FormNoteDetails note={note} />;
}

function Answers({ questions }: { questions: readonly SubmissionQuestion[] }) {
  return (
    <ol className="tw-form-note__answers" aria-label="Answers">
      {questions.map((q) => (
        <li key={q.Id}>
          <span className="tw-form-note__question">{q.Text}</span>
          <span className="tw-form-note__answer">{q.Answer || '—'}</span>
        </li>
      ))}
    </ol>
  );
}

/** A form response brought in from another record: its answers, read-only; it has no intake behind it to resend or map. */
function ImportedFormDetails({ note }: { note: Note }) {
  const data = note.data as unknown as FormNoteData;
  const questions = data.submissionData?.Questions ?? [];
  return (
    <div className="tw-form-note">
      <h3 className="tw-form-note__title">{data.formName}</h3>
      <dl className="tw-form-note__facts">
        <dt>Status</dt>
        <dd>submitted (imported)</dd>
        <dt>Date submitted</dt>
        <dd>{formatDate(data.dateSubmitted)}</dd>
        <dt>Number of questions</dt>
        <dd>{questions.length}</dd>
      </dl>
      <Answers questions={questions} />
      <p className="tw-form-note__hint">Brought in from another record: it was not sent through this practice&apos;s forms.</p>
    </div>
  );
}

function useAdoptNote() {
  const queryClient = useQueryClient();
  return (saved: Note) => {
    queryClient.setQueryData(noteKeys.detail(saved.noteId), saved);
    void queryClient.invalidateQueries({ queryKey: noteKeys.timelines() });
  };
}

function FormSendForm({ note, editable }: { note: Note; editable: boolean }) {
  const adopt = useAdoptNote();
  const forms = useQuery({ queryKey: formKeys.list(), queryFn: ({ signal }) => fetchForms(signal) });
  const [formId, setFormId] = useState<string | null>(null);
  const [method, setMethod] = useState<SendMethod>('Email');
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const send = async () => {
    setError(null);
    if (!note.patientId) return setError('Choose a patient first.');
    if (!formId) return setError(FORM_MESSAGES.selectForm);
    setPending(true);
    try {
      const address_ = address.trim();
      adopt(
        await sendForm({
          noteId: note.noteId,
          patientId: note.patientId,
          formId,
          sendMethod: method,
          ...(address_ ? (method === 'Email' ? { email: address_ } : { phoneNumber: address_ }) : {}),
        }),
      );
      showToast('Form sent', { tone: 'success' });
    } catch (e) {
      setError(withServerText('There was an error sending the form', e));
    } finally {
      setPending(false);
    }
  };
  if (forms.isPending) return <Spinner label="Loading forms" />;
  if (forms.isError)
    return (
      <p role="alert" className="tw-form-note__error">
        {withServerText('There was an error loading the forms.', forms.error)}
      </p>
    );
  return (
    <div className="tw-form-note">
      <Select
        label="Form"
        isRequired
        isDisabled={!editable}
        options={forms.data.map((f) => ({ id: f.id, label: f.name }))}
        value={formId}
        onChange={(id) => {
          setError(null);
          setFormId(id);
        }}
      />
      <Select
        label="Send by"
        isDisabled={!editable}
        options={[
          { id: 'Email', label: 'Email' },
          { id: 'SMS', label: 'SMS' },
        ]}
        value={method}
        onChange={(m) => setMethod((m as SendMethod) ?? 'Email')}
      />
      <TextField
        label={method === 'Email' ? 'Email' : 'Phone number'}
        inputMode={method === 'Email' ? 'email' : 'tel'}
        isDisabled={!editable}
        value={address}
        onChange={setAddress}
        description={method === 'Email' ? "Leave empty to use the patient's email." : "Leave empty to use the patient's phone."}
      />
      {error ? (
        <p className="tw-form-note__error" role="alert">
          {error}
        </p>
      ) : null}
      {editable ? (
        <Button variant="primary" size="sm" onPress={() => void send()} isPending={pending}>
          {pending ? 'Sending…' : 'Send form'}
        </Button>
      ) : null}
    </div>
  );
}

/** How often an open sent form asks whether the patient has submitted it. */
const SUBMISSION_POLL_MS = 3_000;

function FormNoteDetails({ note }: { note: Note }) {
  const data = note.data as unknown as FormNoteData;
  const adopt = useAdoptNote();
  const queryClient = useQueryClient();
  // Locally, the stand-in's page where a person fills the form in as the patient (IntakeQ itself emails or texts the link).
  const app = useQuery({ queryKey: ['forms', 'sso'], queryFn: () => intakeQSso(), staleTime: Infinity });
  const localPage = app.data?.ssoUrl.includes('/local/intakeq') ? `${app.data.ssoUrl.replace(/\/#\/.*$/, '')}/fill/${encodeURIComponent(data.intakeId)}` : null;
  useEffect(() => {
    if (note.status !== 'SENT') return;
    const timer = window.setInterval(() => void queryClient.invalidateQueries({ queryKey: noteKeys.detail(note.noteId) }), SUBMISSION_POLL_MS);
    return () => window.clearInterval(timer);
  }, [note.status, note.noteId, queryClient]);
  const [resending, setResending] = useState(false);
  const [mapping, setMapping] = useState(false);
  const questions = data.submissionData?.Questions ?? [];
  const submitted = note.status === 'DELIVERED' || note.status === 'FULFILLED';
  const resend = async () => {
    setResending(true);
    try {
      adopt(await resendForm(data.intakeId));
      showToast('Form resent', { tone: 'success' });
    } catch (e) {
      showToast(withServerText(FORM_MESSAGES.resendFailed, e), { tone: 'error' });
    } finally {
      setResending(false);
    }
  };
  return (
    <div className="tw-form-note">
      <h3 className="tw-form-note__title">{data.formName}</h3>
      <dl className="tw-form-note__facts">
        <dt>Status</dt>
        <dd>{formStatusLabel(note.status)}</dd>
        <dt>Date sent</dt>
        <dd>{formatDate(data.dateSent)}</dd>
        <dt>Sent to</dt>
        <dd>{data.sendMethod === 'SMS' ? formatPhone(data.sentTo) : data.sentTo}</dd>
        <dt>Date submitted</dt>
        <dd>{formatDate(data.dateSubmitted)}</dd>
        <dt>Number of questions</dt>
        <dd>{submitted ? questions.length : '—'}</dd>
        {data.savedResponses ? (
          <>
            <dt>Responses saved</dt>
            <dd>
              {formatDate(data.savedResponses.savedAt)} ({data.savedResponses.questions.length} of {questions.length})
            </dd>
          </>
        ) : null}
        {data.formMappingDates?.length ? (
          <>
            <dt>Added to Health Summary</dt>
            <dd>{data.formMappingDates.map((d) => formatDate(d)).join(', ')}</dd>
          </>
        ) : null}
      </dl>
      {submitted ? <Answers questions={questions} /> : null}
      {localPage && note.status === 'SENT' ? (
        <p>
          <a href={localPage} target="_blank" rel="noreferrer">
            Open the patient&apos;s form (IntakeQ local stand-in)
          </a>
        </p>
      ) : null}
      <div className="tw-form-note__actions">
        {note.status === 'SENT' ? (
          <Button size="sm" onPress={() => void resend()} isDisabled={resending}>
            {resending ? 'Resending…' : 'Resend Form'}
          </Button>
        ) : null}
        {submitted ? (
          <Button size="sm" variant="primary" onPress={() => setMapping(true)}>
            Add to Health Summary
          </Button>
        ) : null}
      </div>
      {mapping ? <HealthSummaryDialog note={note} questions={questions} onClose={() => setMapping(false)} /> : null}
    </div>
  );
}

interface Row {
  id: string;
  title: string;
  answer: string;
  type: string;
  subType: string | null;
  enabled: boolean;
  section: MappingSection | null;
  titleOverride: string;
}

/** Add to Health Summary (spec chart-data §2, §5): the mapping table, then the answers written into the chart. */
function HealthSummaryDialog({ note, questions, onClose }: { note: Note; questions: SubmissionQuestion[]; onClose: () => void }) {
  const data = note.data as unknown as FormNoteData;
  const queryClient = useQueryClient();
  const saved = useQuery({ queryKey: formKeys.mapping(data.formId), queryFn: ({ signal }) => fetchFormMapping(data.formId, signal) });
  const [rows, setRows] = useState<Row[] | null>(null);
  const [initial, setInitial] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!saved.data || rows) return;
    const byId = new Map(saved.data.questions.map((q) => [q.id, q]));
    const next = questions.map((q) => {
      const m = byId.get(q.Id);
      return {
        id: q.Id,
        title: q.Text,
        answer: q.Answer,
        type: q.QuestionType,
        subType: q.QuestionSubType ?? null,
        enabled: m?.enabled ?? false,
        section: m ? m.section : defaultMappingSection({ title: q.Text, type: q.QuestionType }),
        titleOverride: m?.titleOverride ?? '',
      };
    });
    setRows(next);
    setInitial(JSON.stringify(next));
  }, [saved.data, questions, rows]);
  const errors = useMemo(() => mappingErrors(rows ?? []), [rows]);
  const alreadyAdded = (data.formMappingDates?.length ?? 0) > 0;
  // Spec chart-data §5: Confirm is disabled with errors, with no questions, or when already added and nothing changed.
  const confirmDisabled =
    !rows || rows.length === 0 || Object.keys(errors).length > 0 || (alreadyAdded && JSON.stringify(rows) === initial) || !rows.some((r) => r.enabled);
  const update = (id: string, change: Partial<Row>) => setRows((now) => (now ?? []).map((r) => (r.id === id ? { ...r, ...change } : r)));
  const confirm = async () => {
    if (!rows || !note.patientId) return;
    setPending(true);
    setError(null);
    const questions_ = rows.map(({ answer: _a, ...q }) => q);
    // Spec chart-data §8: the mapping and the responses save together; their failures read "Errors: …".
    const kept = rows.filter((r) => r.enabled && r.section && r.answer.trim()).map((r) => ({ id: r.id }));
    const [mappingSaved, responsesSaved] = await Promise.allSettled([
      saveFormMapping({ formId: data.formId, questions: questions_ }),
      kept.length ? saveFormResponses({ patientId: note.patientId, formId: data.formId, noteId: note.noteId, questions: kept }) : Promise.resolve(null),
    ]);
    const failed = [
      mappingSaved.status === 'rejected' ? withServerText(FORM_MESSAGES.mappingsFailed, mappingSaved.reason) : null,
      responsesSaved.status === 'rejected' ? withServerText(FORM_MESSAGES.responsesFailed, responsesSaved.reason) : null,
    ].filter((m): m is string => !!m);
    if (failed.length) {
      setPending(false);
      return setError(`Errors: ${failed.join(', ')}`);
    }
    try {
      await mapHealthHistory(note.patientId, { noteId: note.noteId, formId: data.formId, questions: rows });
      // The note (now fulfilled) and every chart section it wrote into read again.
      void queryClient.invalidateQueries();
      showToast('Added to Health Summary', { tone: 'success' });
      onClose();
    } catch (e) {
      setError(withServerText(FORM_MESSAGES.mapFailed, e));
    } finally {
      setPending(false);
    }
  };
  return (
    <MappingDialog
      title="Add to Health Summary"
      onClose={onClose}
      isLoaded={!!rows}
      loadError={saved.isError ? withServerText(FORM_MESSAGES.mappingsFailed, saved.error) : null}
      error={error}
      confirmLabel="Confirm"
      confirmDisabled={confirmDisabled}
      pending={pending}
      onConfirm={() => void confirm()}
    >
      <MappingTable
        rows={rows ?? []}
        errors={errors}
        onChange={update}
        addHeading="Add"
        nameOf={(r) => r.title}
        extraColumn={{
          heading: 'Question and answer',
          render: (r) => (
            <>
              <span className="tw-form-note__question">{r.title}</span>
              <span className="tw-form-note__answer">{r.answer || '—'}</span>
            </>
          ),
        }}
      />
    </MappingDialog>
  );
}
