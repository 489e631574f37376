import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { displayPhone, smsDayLabel, smsTimeLabel } from '../../../components/sms/sms-format.js';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { Link } from '../../../components/ui/link.js';
import { Page } from '../../../components/ui/page.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { isApiError } from '../../../lib/api-error.js';
import { messagingKeys } from '../../../lib/messaging.js';
import { paths } from '../../../lib/paths.js';
import { usePatient } from '../../../lib/patients.js';
import { showToast } from '../../../lib/toasts.js';
import { messagesApi, useScheduledEvent } from '../api/messages-api.js';
import '../messages.css';
import { fromLocalInput, toLocalInput } from '../scheduled-time.js';
import { SMS_MESSAGES } from '../sms-rules.js';

const STATUS_WORDS: Record<string, string> = {
  active: 'Scheduled',
  processing: 'Sending',
  completed: 'Sent',
  failed: 'Failed',
  deleted: 'Cancelled',
};

/** One scheduled text (spec notes §2 /messages/scheduled/{eventId}): view it, change its time or cancel it. */
export function ScheduledEventPage() {
  const { eventId = '' } = useParams<{ eventId: string }>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const event = useScheduledEvent(eventId);
  const patient = usePatient(event.data?.request.patientId ?? null);
  const [when, setWhen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<'time' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const whenId = useId();

  // The lists of scheduled texts, not this event: a cancelled one is no longer served, so the page keeps the answer it got.
  const refresh = () => queryClient.invalidateQueries({ queryKey: messagingKeys.scheduled(), predicate: (q) => q.queryKey[2] !== 'event' });

  const changeTime = async () => {
    const at = when ? fromLocalInput(when) : null;
    if (!at) return setError(SMS_MESSAGES.scheduledWhenRequired);
    if (Date.parse(at) <= Date.now()) return setError(SMS_MESSAGES.scheduledWhenPast);
    setError(null);
    setBusy('time');
    try {
      const updated = await messagesApi.reschedule(eventId, at);
      queryClient.setQueryData(messagingKeys.scheduledEvent(eventId), updated);
      await refresh();
      setWhen(null);
      showToast(`The message will be sent ${smsDayLabel(updated.when)} ${smsTimeLabel(updated.when)}`, { tone: 'success' });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  const cancel = async () => {
    setBusy('cancel');
    try {
      const cancelled = await messagesApi.cancelScheduled(eventId);
      queryClient.setQueryData(messagingKeys.scheduledEvent(eventId), cancelled);
      await refresh();
      setConfirming(false);
      showToast('The scheduled message was cancelled', { tone: 'success' });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setConfirming(false);
    } finally {
      setBusy(null);
    }
  };

  if (event.isPending) return <Spinner label="Loading scheduled message" />;
  if (event.isError) {
    return (
      <Page title="Scheduled message">
        <p className="tw-card tw-scheduled" role="alert">
          {isApiError(event.error, 404) ? SMS_MESSAGES.scheduledEventNotFound : event.error.message}
        </p>
      </Page>
    );
  }
  const data = event.data;
  const active = data.status === 'active';
  const conversationHref = paths.smsConversation(data.request.data.to, data.request.data.from);

  return (
    <Page title="Scheduled message" actions={<Link href={conversationHref}>Open conversation</Link>}>
      <div className="tw-card tw-scheduled">
        <dl className="tw-scheduled__facts">
          <dt>Status</dt>
          <dd data-testid="scheduled-status">{STATUS_WORDS[data.status] ?? data.status}</dd>
          <dt>{data.status === 'completed' ? 'Sent' : 'Send at'}</dt>
          <dd>
            {smsDayLabel(data.completedAt ?? data.when)} {smsTimeLabel(data.completedAt ?? data.when)}
          </dd>
          <dt>Patient</dt>
          <dd>{patient.data ? fullNameWithAge(patient.data) : data.request.patientId}</dd>
          <dt>To</dt>
          <dd>{displayPhone(data.request.data.to)}</dd>
          <dt>From</dt>
          <dd>{displayPhone(data.request.data.from)}</dd>
          <dt>Message</dt>
          <dd>{data.request.data.text}</dd>
          {data.failureReason ? (
            <>
              <dt>Why it failed</dt>
              <dd>{data.failureReason}</dd>
            </>
          ) : null}
        </dl>
        {active ? (
          <div className="tw-scheduled__actions">
            <div className="tw-field">
              <label htmlFor={whenId} className="tw-field__label">
                New send time
              </label>
              <input
                id={whenId}
                type="datetime-local"
                step={1}
                className="tw-scheduled__when"
                value={when ?? toLocalInput(new Date(data.when))}
                onChange={(e) => setWhen(e.target.value)}
              />
            </div>
            <Button variant="primary" isPending={busy === 'time'} isDisabled={when === null} onPress={() => void changeTime()}>
              Change time
            </Button>
            <Button variant="danger" onPress={() => setConfirming(true)}>
              Cancel message
            </Button>
          </div>
        ) : null}
        {error ? (
          <p className="tw-field__error" role="alert">
            {error}
          </p>
        ) : null}
        <div>
          <Button onPress={() => void navigate(paths.messages())}>Back to Communication</Button>
        </div>
      </div>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title="Cancel this scheduled message?"
        confirmLabel="Cancel message"
        tone="danger"
        isPending={busy === 'cancel'}
        onConfirm={() => void cancel()}
      >
        It will not be sent.
      </ConfirmDialog>
    </Page>
  );
}
