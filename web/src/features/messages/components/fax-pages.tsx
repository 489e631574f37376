import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { FAX_COVER_MAX, FAX_MESSAGES, FAX_STATUSES, type FaxDirection, type FaxStatus } from '../../../../../shared/faxes/fax-schema.js';
import { formatPhone, normalizePhone } from '../../../../../shared/patients/phone.js';
import { PatientPicker } from '../../../components/patient-picker.js';
import { Button } from '../../../components/ui/button.js';
import { Page } from '../../../components/ui/page.js';
import { Select } from '../../../components/ui/select.js';
import { isApiError } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { faxesApi, faxKeys, useFaxList, useFaxNumbers } from '../api/faxes-api.js';
import { FaxRecipientPicker } from './fax-recipient-picker.js';
import { FilterInput, MessageTable } from './message-table.js';
import type { Contact } from '../../../../../shared/contacts/contact-schema.js';
import '../messages.css';

const STATUS_LABELS: Record<FaxStatus, string> = { QUEUED: 'Queued', IN_PROGRESS: 'Sending', COMPLETED: 'Delivered', FAILURE: 'Failed' };

/** /messages/fax/new?patientId=&noteId=: fax a signed or addended note, or the facesheet, to a contact's fax number or a typed one. */
export function FaxNewPage() {
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const numbers = useFaxNumbers();
  const [patientId, setPatientId] = useState<string | null>(query.get('patientId'));
  const noteId = query.get('noteId');
  // ?fileKeys=a&fileKeys=b or ?fileKeys=a,b: drive files sent after the letter.
  const fileKeys = useMemo(
    () =>
      query
        .getAll('fileKeys')
        .flatMap((v) => v.split(','))
        .map((k) => k.trim())
        .filter(Boolean),
    [query],
  );
  const [contact, setContact] = useState<Contact | null>(null);
  const [typed, setTyped] = useState('');
  const [cover, setCover] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const typedId = useId();
  const coverId = useId();
  const errorId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const to = contact ? contact.faxNumber : normalizePhone(typed);
    if (!patientId) return setError('Select a patient');
    if (!to) return setError(FAX_MESSAGES.recipientRequired);
    setError(null);
    setSending(true);
    try {
      await faxesApi.send({
        patientId,
        noteId,
        to,
        ...(fileKeys.length ? { fileKeys } : {}),
        ...(contact ? { recipientName: [contact.name, contact.lastName].filter(Boolean).join(' ') } : {}),
        ...(cover.trim() ? { coverText: cover.trim() } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: faxKeys.all });
      void navigate('/messages/fax', { replace: true });
    } catch (e) {
      setError(isApiError(e) || e instanceof Error ? e.message : FAX_MESSAGES.sendError);
      setSending(false);
    }
  };

  return (
    <Page title="New fax">
      <form className="tw-card tw-scheduled" onSubmit={(e) => void submit(e)} aria-describedby={error ? errorId : undefined} noValidate>
        <p>
          {noteId
            ? 'The signed note is sent as a letter on the practice letterhead.'
            : "The patient's facesheet is sent as a letter on the practice letterhead."}
        </p>
        {fileKeys.length ? (
          <div>
            <p>Attached after the letter:</p>
            <ul className="tw-fax-attachments">
              {fileKeys.map((k) => (
                <li key={k}>{k.split('/').pop()}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <PatientPicker value={patientId} onChange={(id) => setPatientId(id)} label="Patient" />
        <FaxRecipientPicker value={contact} onChange={setContact} />
        {contact ? null : (
          <div className="tw-field">
            <label htmlFor={typedId} className="tw-field__label">
              Fax number
            </label>
            <input id={typedId} inputMode="tel" className="tw-scheduled__when" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
        )}
        <p>From {numbers.data?.[0] ? formatPhone(numbers.data[0]) : '—'}</p>
        <div className="tw-field">
          <label htmlFor={coverId} className="tw-field__label">
            Cover note
          </label>
          <textarea id={coverId} className="tw-scheduled__textarea" value={cover} maxLength={FAX_COVER_MAX} onChange={(e) => setCover(e.target.value)} />
        </div>
        {error ? (
          <p id={errorId} className="tw-field__error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="tw-scheduled__actions">
          <Button type="submit" variant="primary" isPending={sending}>
            Send fax
          </Button>
          <Button onPress={() => void navigate(-1)}>Cancel</Button>
        </div>
      </form>
    </Page>
  );
}

const DIRECTIONS: { id: string; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'OUTBOUND', label: 'Sent' },
  { id: 'INBOUND', label: 'Received' },
];

const FAX_COLUMNS = ['Date', 'Direction', 'Number', 'Patient', 'Status', 'Actions'] as const;

/** /messages/fax: the practice's faxes with their filters; a sent fax can be sent again. */
export function FaxListPage() {
  const queryClient = useQueryClient();
  const [direction, setDirection] = useState<string | null>('all');
  const [status, setStatus] = useState<string | null>('all');
  const [search, setSearch] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const list = useFaxList({
    direction: direction === 'all' ? undefined : (direction as FaxDirection),
    status: status === 'all' ? undefined : (status as FaxStatus),
    query: search.trim(),
  });
  const resend = async (ident: string) => {
    try {
      await faxesApi.resend(ident);
      setNotice(FAX_MESSAGES.sent);
    } catch (e) {
      setNotice(isApiError(e) || e instanceof Error ? e.message : FAX_MESSAGES.sendError);
    }
    await queryClient.invalidateQueries({ queryKey: faxKeys.all });
  };
  return (
    <Page title="Faxes">
      <div className="tw-card">
        <div className="tw-fax-toolbar">
          <Select label="Direction" options={DIRECTIONS} value={direction} onChange={setDirection} />
          <Select
            label="Status"
            options={[{ id: 'all', label: 'All' }, ...FAX_STATUSES.map((s) => ({ id: s, label: STATUS_LABELS[s] }))]}
            value={status}
            onChange={setStatus}
          />
          <FilterInput label="Search" type="search" value={search} onChange={setSearch} />
          <Link to="/messages/fax/new">New fax</Link>
        </div>
        <p role="status">{notice}</p>
        <MessageTable
          label="Fax list"
          caption={list.data ? `${list.data.total} ${list.data.total === 1 ? 'fax' : 'faxes'}` : 'Loading faxes'}
          columns={FAX_COLUMNS}
        >
          {(list.data?.faxes ?? []).map((f) => (
            <tr key={f.ident}>
              <td>{new Date(f.createdAt).toLocaleString()}</td>
              <td>{f.direction === 'OUTBOUND' ? 'Sent' : 'Received'}</td>
              <td>{f.direction === 'OUTBOUND' ? `${f.recipientName ? `${f.recipientName} ` : ''}${formatPhone(f.recipient)}` : formatPhone(f.sender)}</td>
              <td>{f.patientId ? <Link to={paths.patient(f.patientId)}>{f.patientName}</Link> : 'Not matched'}</td>
              <td>{STATUS_LABELS[f.status]}</td>
              <td>{f.direction === 'OUTBOUND' ? <Button onPress={() => void resend(f.ident)}>Resend</Button> : null}</td>
            </tr>
          ))}
        </MessageTable>
      </div>
    </Page>
  );
}
