import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { CALL_MESSAGES, type PhoneCall } from '../../../../../shared/calls/call-schema.js';
import { formatPhone, normalizePhone } from '../../../../../shared/patients/phone.js';
import { PatientPicker } from '../../../components/patient-picker.js';
import { Button } from '../../../components/ui/button.js';
import { Page } from '../../../components/ui/page.js';
import { Select } from '../../../components/ui/select.js';
import { isApiError } from '../../../lib/api-error.js';
import { displayUserName, useCurrentUser, usePracticeUsers } from '../../../lib/practice.js';
import { paths } from '../../../lib/paths.js';
import { callKeys, callsApi, simulateIncomingCall, useCallList, useCallNumbers, type SimulatedCallEnd } from '../api/calls-api.js';
import { FilterInput, MessageTable } from './message-table.js';
import '../messages.css';

const VENDOR_STATUS_LABELS: Record<string, string> = {
  queued: 'Queued',
  initiated: 'Dialing',
  ringing: 'Ringing',
  'in-progress': 'In progress',
  completed: 'Completed',
  busy: 'Busy',
  failed: 'Failed',
  'no-answer': 'No answer',
  canceled: 'Canceled',
};

const NOBODY = '__nobody__';
const errorText = (e: unknown, fallback: string) => (isApiError(e) || e instanceof Error ? e.message : fallback);
const party = (name: string | null, number: string) => (name ? `${name} (${formatPhone(number)})` : formatPhone(number));

/** The local stand-in's notice, and its incoming call: with a voicemail, unanswered, or hung up during the greeting (npm start only). */
function LocalTelephonyPanel({ onDone }: { onDone: () => void }) {
  const [from, setFrom] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const fromId = useId();
  const simulate = async (end: SimulatedCallEnd) => {
    const number = normalizePhone(from);
    if (!number) return setMessage('Enter a 10-digit number to call from');
    try {
      await simulateIncomingCall(number, end);
      setMessage(
        end === 'voicemail'
          ? `Incoming call from ${formatPhone(number)} left a voicemail`
          : end === 'hang-up'
            ? `The caller from ${formatPhone(number)} hung up during the greeting: a missed call once the wait for a late message is over`
            : `Missed call from ${formatPhone(number)}`,
      );
      onDone();
    } catch (e) {
      setMessage(errorText(e, 'The local telephony stand-in did not answer'));
    }
  };
  return (
    <section className="tw-card tw-local-telephony" aria-labelledby={`${fromId}-h`}>
      <h2 id={`${fromId}-h`} className="tw-local-telephony__title">
        Local telephony stand-in
      </h2>
      <p>Calls are played through by Tidewell's local Twilio stand-in: no phone rings and nothing leaves this machine.</p>
      <div className="tw-fax-toolbar">
        <div className="tw-field">
          <label htmlFor={fromId} className="tw-field__label">
            Incoming call from
          </label>
          <input id={fromId} inputMode="tel" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <Button onPress={() => void simulate('voicemail')}>Simulate call with voicemail</Button>
        <Button onPress={() => void simulate('no-answer')}>Simulate missed call</Button>
        <Button onPress={() => void simulate('hang-up')}>Simulate hang-up during greeting</Button>
      </div>
      <p role="status">{message}</p>
    </section>
  );
}

function Voicemail({ call }: { call: PhoneCall }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!call.voicemailKey) return <>—</>;
  if (url) {
    return (
      // A voicemail has no captions: its words are the caller's, heard once; the call row names who left it.
      <audio controls autoPlay src={url} aria-label={`Voicemail from ${party(call.callerName, call.caller)}`} className="tw-call-audio" />
    );
  }
  return (
    <>
      <Button
        onPress={() =>
          void callsApi
            .voicemailUrl(call.voicemailKey!)
            .then(setUrl)
            .catch((e: unknown) => setError(errorText(e, 'The voicemail could not be loaded')))
        }
        aria-label={`Play voicemail from ${party(call.callerName, call.caller)}`}
      >
        Play voicemail{call.voicemailSeconds ? ` (${call.voicemailSeconds} s)` : ''}
      </Button>
      {error ? <span role="alert">{error}</span> : null}
    </>
  );
}

const CALL_COLUMNS = ['Date', 'From', 'To', 'Patient', 'Call', 'Voicemail', 'Assigned', 'Actions'] as const;

/** /messages/calls: the practice's calls with the spec's filters; each can be assigned, marked, played and deleted. */
export function CallListPage() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [caller, setCaller] = useState('');
  const [recipient, setRecipient] = useState('');
  const [fromDate, setFromDate] = useState('');
  const [toDate, setToDate] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const numbers = useCallNumbers();
  const users = usePracticeUsers();
  const list = useCallList({ query: search.trim(), caller: caller.trim(), recipient: recipient.trim(), fromDate, toDate });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: callKeys.all });
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setNotice(done);
    } catch (e) {
      setNotice(errorText(e, 'The call could not be changed'));
    }
    refresh();
  };
  const userOptions = [
    { id: NOBODY, label: 'Nobody' },
    ...(users.data ?? []).filter((u) => u.userStatus !== 'deleted').map((u) => ({ id: u.userId, label: displayUserName(u) })),
  ];
  return (
    <Page title="Phone calls">
      {numbers.data?.local ? <LocalTelephonyPanel onDone={refresh} /> : null}
      <div className="tw-card">
        <div className="tw-fax-toolbar">
          <FilterInput label="Search" type="search" value={search} onChange={setSearch} />
          <FilterInput label="Caller" value={caller} onChange={setCaller} />
          <FilterInput label="Recipient" value={recipient} onChange={setRecipient} />
          <FilterInput label="From date" type="date" value={fromDate} onChange={setFromDate} />
          <FilterInput label="To date" type="date" value={toDate} onChange={setToDate} />
          <Link to="/messages/calls/new">New call</Link>
        </div>
        <p role="status">{notice}</p>
        <MessageTable
          label="Call list"
          caption={
            list.data ? `${list.data.total} ${list.data.total === 1 ? 'call' : 'calls'}` : list.isError ? 'The calls could not be loaded' : 'Loading calls'
          }
          columns={CALL_COLUMNS}
        >
          {(list.data?.calls ?? []).map((c) => (
            <tr key={c.ident} className={c.status === 'UNREAD' ? 'tw-call-row--unread' : undefined} data-testid="call-row">
              <td>
                {new Date(c.createdAt).toLocaleString()}
                {c.status === 'UNREAD' ? <span className="tw-call-unread"> Unread</span> : null}
              </td>
              <td>{party(c.callerName, c.caller)}</td>
              <td>{party(c.recipientName, c.recipient)}</td>
              <td>{c.patientId ? <Link to={paths.patient(c.patientId)}>{c.patientName}</Link> : '—'}</td>
              <td>
                {c.direction === 'OUTBOUND' ? 'Outgoing' : 'Incoming'}, {VENDOR_STATUS_LABELS[c.callStatus] ?? c.callStatus}
                {c.durationSeconds ? `, ${c.durationSeconds} s` : ''}
                {c.missed ? ', missed call' : ''}
              </td>
              <td>
                <Voicemail call={c} />
              </td>
              <td>
                <Select
                  label={`Assign call of ${new Date(c.createdAt).toLocaleString()}`}
                  options={userOptions}
                  value={c.assigned ?? NOBODY}
                  onChange={(id) =>
                    void act(() => (id && id !== NOBODY ? callsApi.assign(c.ident, id) : callsApi.update(c, { assigned: null })), 'Call assigned')
                  }
                  className="tw-call-assign"
                />
              </td>
              <td className="tw-call-actions">
                <Button
                  onPress={() =>
                    void act(
                      () => callsApi.update(c, { status: c.status === 'UNREAD' ? 'READ' : 'UNREAD' }),
                      c.status === 'UNREAD' ? 'Marked as read' : 'Marked as unread',
                    )
                  }
                >
                  {c.status === 'UNREAD' ? 'Mark as read' : 'Mark as unread'}
                </Button>
                <Button onPress={() => void act(() => callsApi.remove(c.ident), CALL_MESSAGES.deleted)}>Delete</Button>
              </td>
            </tr>
          ))}
        </MessageTable>
      </div>
    </Page>
  );
}

/** /messages/calls/new?to=&patientId=: the practice rings the user's phone, then connects them to the number. */
export function CallNewPage() {
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const numbers = useCallNumbers();
  const me = useCurrentUser();
  const [patientId, setPatientId] = useState<string | null>(query.get('patientId'));
  const [to, setTo] = useState(query.get('to') ? formatPhone(query.get('to')) : '');
  const [dialFrom, setDialFrom] = useState<string | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [placing, setPlacing] = useState(false);
  const ids = { to: useId(), dial: useId(), error: useId() };
  const myPhone =
    dialFrom ??
    ((me.data as { cellNumber?: string | null } | undefined)?.cellNumber ? formatPhone((me.data as { cellNumber?: string | null }).cellNumber) : '');
  const fromNumber = from ?? numbers.data?.phoneNumbers[0] ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const number = normalizePhone(to);
    if (!number) return setError(CALL_MESSAGES.recipientRequired);
    setError(null);
    setPlacing(true);
    try {
      const dial = normalizePhone(myPhone);
      await callsApi.place({
        to: number,
        ...(fromNumber ? { from: fromNumber } : {}),
        ...(patientId ? { patientId } : {}),
        ...(dial ? { dialFrom: dial } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: callKeys.all });
      void navigate('/messages/calls', { replace: true });
    } catch (e) {
      setError(errorText(e, CALL_MESSAGES.placeError));
      setPlacing(false);
    }
  };

  return (
    <Page title="New phone call">
      <form className="tw-card tw-scheduled" onSubmit={(e) => void submit(e)} aria-describedby={error ? ids.error : undefined} noValidate>
        <p>Your phone rings first; when you answer, the call connects to the number below and shows the practice's number.</p>
        <div className="tw-field">
          <label htmlFor={ids.to} className="tw-field__label">
            Number to call
          </label>
          <input id={ids.to} inputMode="tel" className="tw-scheduled__when" value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
        <PatientPicker value={patientId} onChange={(id) => setPatientId(id)} label="Patient (optional)" />
        <div className="tw-field">
          <label htmlFor={ids.dial} className="tw-field__label">
            Your phone
          </label>
          <input id={ids.dial} inputMode="tel" className="tw-scheduled__when" value={myPhone} onChange={(e) => setDialFrom(e.target.value)} />
        </div>
        <Select
          label="Call from"
          options={(numbers.data?.phoneNumbers ?? []).map((n) => ({ id: n, label: formatPhone(n) }))}
          value={fromNumber}
          onChange={setFrom}
        />
        {numbers.data?.local ? <p className="tw-local-telephony__note">Local telephony stand-in: no phone rings.</p> : null}
        {error ? (
          <p id={ids.error} className="tw-field__error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="tw-scheduled__actions">
          <Button type="submit" variant="primary" isPending={placing}>
            Call
          </Button>
          <Button onPress={() => void navigate(-1)}>Cancel</Button>
        </div>
      </form>
    </Page>
  );
}
