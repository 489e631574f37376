import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { SMS_TEXT_MAX } from '../../../../../shared/messaging/messaging-constants.js';
import { normalizePhone } from '../../../../../shared/patients/phone.js';
import { PatientPicker } from '../../../components/patient-picker.js';
import { displayPhone } from '../../../components/sms/sms-format.js';
import { Button } from '../../../components/ui/button.js';
import { Page } from '../../../components/ui/page.js';
import { Select } from '../../../components/ui/select.js';
import { isApiError } from '../../../lib/api-error.js';
import { messagingKeys } from '../../../lib/messaging.js';
import { paths } from '../../../lib/paths.js';
import { usePatient } from '../../../lib/patients.js';
import { usePracticeNumbers } from '../api/use-practice-numbers.js';
import { messagesApi } from '../api/messages-api.js';
import '../messages.css';
import { defaultSendTime, fromLocalInput, toLocalInput } from '../scheduled-time.js';
import { SMS_MESSAGES } from '../sms-rules.js';

/** Send Later (spec notes §2, §7): /messages/scheduled/new?noteType=SMS&patientId=&from=&text= (and to, the patient phone). */
export function ScheduledNewPage() {
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const numbers = usePracticeNumbers();
  const [patientId, setPatientId] = useState<string | null>(query.get('patientId'));
  const patient = usePatient(patientId);
  const phones = useMemo(
    () =>
      (patient.data?.phones ?? []).flatMap((p) =>
        normalizePhone(p.number) ? [{ id: normalizePhone(p.number) ?? '', label: `${displayPhone(p.number)} (${p.type})` }] : [],
      ),
    [patient.data],
  );
  const [to, setTo] = useState<string | null>(normalizePhone(query.get('to') ?? '') ?? null);
  useEffect(() => {
    if (phones.length > 0 && !phones.some((p) => p.id === to)) setTo(phones[0].id);
  }, [phones, to]);
  const [from, setFrom] = useState<string | null>(normalizePhone(query.get('from') ?? '') ?? null);
  const fromValue = from ?? numbers.options[0]?.id ?? null;
  const [text, setText] = useState(query.get('text') ?? '');
  const [when, setWhen] = useState(() => toLocalInput(defaultSendTime()));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const textId = useId();
  const whenId = useId();
  const errorId = useId();
  const noteType = query.get('noteType') ?? 'SMS';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const at = fromLocalInput(when);
    if (!patientId) return setError(SMS_MESSAGES.selectPatient);
    if (!to) return setError('This patient has no phone number to text.');
    if (!fromValue) return setError(SMS_MESSAGES.noPracticeNumber);
    if (!text.trim()) return setError(SMS_MESSAGES.textOrFileRequired);
    if (!at) return setError(SMS_MESSAGES.scheduledWhenRequired);
    if (Date.parse(at) <= Date.now()) return setError(SMS_MESSAGES.scheduledWhenPast);
    setError(null);
    setSaving(true);
    try {
      const created = await messagesApi.schedule({ when: at, patientId, from: fromValue, to, text });
      await queryClient.invalidateQueries({ queryKey: messagingKeys.scheduled() });
      void navigate(paths.scheduledMessage(created.eventId), { replace: true });
    } catch (e) {
      setError(isApiError(e) || e instanceof Error ? e.message : SMS_MESSAGES.sendViaApiFailed);
      setSaving(false);
    }
  };

  return (
    <Page title="Send Later">
      <form className="tw-card tw-scheduled" onSubmit={(e) => void submit(e)} aria-describedby={error ? errorId : undefined} noValidate>
        {noteType !== 'SMS' ? <p role="alert">{SMS_MESSAGES.scheduledOnlySms}</p> : null}
        <PatientPicker value={patientId} onChange={(id) => setPatientId(id)} label="Patient" />
        {phones.length > 0 ? <Select label="To" options={phones} value={to} onChange={setTo} /> : null}
        {patient.data && phones.length === 0 ? <p>This patient has no phone number to text.</p> : null}
        <Select label="From" options={numbers.options} value={fromValue} onChange={setFrom} />
        <div className="tw-field">
          <label htmlFor={textId} className="tw-field__label">
            Message
          </label>
          <textarea
            id={textId}
            className="tw-scheduled__textarea"
            placeholder={SMS_MESSAGES.composerPlaceholder}
            value={text}
            maxLength={SMS_TEXT_MAX}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <div className="tw-field">
          <label htmlFor={whenId} className="tw-field__label">
            Send at
          </label>
          <input id={whenId} type="datetime-local" step={1} className="tw-scheduled__when" value={when} onChange={(e) => setWhen(e.target.value)} />
        </div>
        {error ? (
          <p id={errorId} className="tw-field__error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="tw-scheduled__actions">
          <Button type="submit" variant="primary" isPending={saving}>
            Schedule message
          </Button>
          <Button onPress={() => void navigate(-1)}>Cancel</Button>
        </div>
      </form>
    </Page>
  );
}
