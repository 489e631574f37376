import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { normalizePhone } from '../../../../../shared/patients/phone.js';
import { PatientPicker } from '../../../components/patient-picker.js';
import { displayPhone, smsBubble, type SmsBubble } from '../../../components/sms/sms-format.js';
import { SmsMessageList } from '../../../components/sms/sms-message-list.js';
import { Avatar } from '../../../components/ui/avatar.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { Link } from '../../../components/ui/link.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { useContactName } from '../../../lib/contacts.js';
import { messagingKeys } from '../../../lib/messaging.js';
import { paths } from '../../../lib/paths.js';
import { usePatient } from '../../../lib/patients.js';
import { showToast, toastQueue } from '../../../lib/toasts.js';
import { messagesApi, useConversation, useConversationMessages, useScheduledEvents, type MessageList, type SmsMessage } from '../api/messages-api.js';
import { usePatientsSharingPhone } from '../api/use-patients-sharing-phone.js';
import { usePracticeNumbers } from '../api/use-practice-numbers.js';
import { uploadFile, type UploadedFile } from '../../../lib/upload-file.js';
import { canSend, SMS_MESSAGES, withServerText } from '../sms-rules.js';
import '../messages.css';
import { ScheduledRow } from './scheduled-row.js';
import { SmsComposer } from './sms-composer.js';
import { WaiverBanner } from './waiver-banner.js';

const bubbleOf = (m: SmsMessage): SmsBubble => ({ ...smsBubble(m), unread: m.direction === 'inbound' && m.readStatus === 'UNREAD' });

/**
 * The SMS chat (spec shell §2.10, notes §2): one patient phone and one practice phone, or, without
 * them in the route, new-message mode with 'To:' and a patient search.
 */
export function SmsChatPage() {
  const params = useParams<{ patientPhone?: string; practicePhone?: string }>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const newMessage = !params.patientPhone;

  // New-message mode: the patient and which of their phones, chosen here.
  const [toPatientId, setToPatientId] = useState<string | null>(null);
  const [toPhone, setToPhone] = useState<string | null>(null);
  const toPatient = usePatient(toPatientId);
  const toPhones = useMemo(
    () => (toPatient.data?.phones ?? []).flatMap((p) => (normalizePhone(p.number) ? [{ ...p, number: normalizePhone(p.number) ?? p.number }] : [])),
    [toPatient.data],
  );
  useEffect(() => {
    if (newMessage && toPhones.length > 0 && !toPhones.some((p) => p.number === toPhone)) setToPhone(toPhones[0].number);
  }, [newMessage, toPhones, toPhone]);

  const patientPhone = newMessage ? toPhone : (normalizePhone(params.patientPhone ?? '') ?? params.patientPhone ?? null);
  const numbers = usePracticeNumbers();
  const [chosenFrom, setChosenFrom] = useState<string | null>(null);
  const from = newMessage ? (chosenFrom ?? numbers.main) : (normalizePhone(params.practicePhone ?? '') ?? params.practicePhone ?? null);

  const conversation = useConversation(patientPhone, from);
  const conversationId = conversation.data?.conversationId;
  const messages = useConversationMessages(conversationId);
  const scheduled = useScheduledEvents({ to: patientPhone ?? undefined, from: from ?? undefined, status: 'active' }, Boolean(patientPhone && from));

  const sharing = usePatientsSharingPhone(newMessage ? null : patientPhone, conversation.data?.patientIds);
  const [headerPatientId, setHeaderPatientId] = useState<string | null>(null);
  const headerPatient = newMessage ? (toPatient.data ?? null) : (sharing.patients.find((p) => p.id === headerPatientId) ?? sharing.patients[0] ?? null);

  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [driveFiles, setDriveFiles] = useState<UploadedFile[]>([]);
  const [pending, setPending] = useState<SmsBubble | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [chartPatientId, setChartPatientId] = useState<string | null>(null);
  const [busy, setBusy] = useState<'unread' | 'chart' | 'delete' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const chartPatient = usePatient(chartPatientId ?? headerPatient?.id ?? null);
  const bottomRef = useRef<HTMLDivElement>(null);

  const list = useMemo(() => (messages.data?.messages ?? []).map(bubbleOf), [messages.data]);
  const shown = pending ? [...list, pending] : list;

  // Spec shell §4: incoming unread texts turn READ when shown, unless being selected.
  const markedRef = useRef<string>('');
  useEffect(() => {
    if (!conversationId || selecting) return;
    const unread = list.filter((m) => m.unread).map((m) => m.id);
    const key = `${conversationId}:${unread.join(',')}`;
    if (unread.length === 0 || markedRef.current === key) return;
    markedRef.current = key;
    messagesApi
      .markRead(conversationId, { messageIds: unread })
      .then(() => {
        void queryClient.invalidateQueries({ queryKey: messagingKeys.all });
        void queryClient.invalidateQueries({ queryKey: ['notifications'] });
      })
      .catch((error: unknown) => showToast(withServerText(SMS_MESSAGES.markReadFailed, error), { tone: 'error' }));
  }, [conversationId, list, selecting, queryClient]);

  useEffect(() => {
    bottomRef.current?.scrollIntoView?.({ block: 'end' });
  }, [shown.length]);

  // A scheduled text that left the active list was sent (or failed): the conversation shows it.
  const scheduledIds = (scheduled.data?.events ?? []).map((e) => e.eventId).join(',');
  const previousScheduled = useRef(scheduledIds);
  useEffect(() => {
    const gone = previousScheduled.current.split(',').some((id) => id && !scheduledIds.split(',').includes(id));
    previousScheduled.current = scheduledIds;
    if (gone && conversationId) void queryClient.invalidateQueries({ queryKey: messagingKeys.messages(conversationId) });
  }, [scheduledIds, conversationId, queryClient]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: messagingKeys.all });

  const send = async () => {
    if (!canSend({ text, files: files.length + driveFiles.length, newMessage, patientChosen: Boolean(toPatientId && toPhone) })) return;
    if (!from) return showToast(SMS_MESSAGES.userMissingPhone, { tone: 'error' });
    const body = text;
    const attached = files;
    const picked = driveFiles;
    setText('');
    setFiles([]);
    setDriveFiles([]);
    setPending({ id: 'sending', direction: 'outbound', text: body, timestamp: new Date().toISOString(), pending: true });
    try {
      const id =
        conversationId ??
        (
          await queryClient.fetchQuery({
            queryKey: messagingKeys.conversation(patientPhone ?? '', from),
            queryFn: () => messagesApi.openConversation(patientPhone ?? '', from),
          })
        ).conversationId;
      const folder = headerPatient ? `patients/${headerPatient.id}/sms` : `sms/${id}`;
      const uploaded = await Promise.all(attached.map((file) => uploadFile(file, folder)));
      const result = await messagesApi.send(id, { text: body, files: [...picked, ...uploaded], from });
      queryClient.setQueryData<MessageList>(messagingKeys.messages(id), (current) =>
        current && !current.messages.some((m) => m.messageId === result.message.messageId)
          ? { ...current, messages: [...current.messages, result.message] }
          : current,
      );
      await refresh();
      if (newMessage && patientPhone) void navigate(paths.smsConversation(patientPhone, from), { replace: true });
    } catch (error) {
      // A failed send keeps what was typed and attached.
      setText((current) => (current ? `${body}\n${current}` : body));
      setFiles((current) => [...attached, ...current]);
      setDriveFiles((current) => [...picked, ...current.filter((f) => !picked.some((p) => p.key === f.key))]);
      // The API's refusal already starts with the spec's sentence; the toast adds only the why.
      const said = error instanceof Error ? error.message.trim() : '';
      const why = said.startsWith(SMS_MESSAGES.sendFailed) ? said.slice(SMS_MESSAGES.sendFailed.length).trim() : said;
      showToast(SMS_MESSAGES.sendFailed, { tone: 'error', description: why || SMS_MESSAGES.sendViaApiFailed });
      // A refused text is kept as FAILED: the conversation shows it with its reason.
      void refresh();
    } finally {
      setPending(null);
    }
  };

  const toggleSelected = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const markUnread = async () => {
    if (!conversationId || selected.size === 0) return;
    setBusy('unread');
    const loading = showToast(SMS_MESSAGES.markUnreadLoading);
    try {
      await messagesApi.markUnread(conversationId, { messageIds: [...selected] });
      toastQueue.close(loading);
      showToast(SMS_MESSAGES.markUnreadSuccess, { tone: 'success' });
      await refresh();
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
      void navigate(paths.messages());
    } catch (error) {
      toastQueue.close(loading);
      showToast(withServerText(SMS_MESSAGES.markUnreadError, error), { tone: 'error' });
      setBusy(null);
    }
  };

  const addToChart = async () => {
    const patient = chartPatient.data;
    if (!patient) return showToast(SMS_MESSAGES.selectPatient, { tone: 'error' });
    const chosen = (messages.data?.messages ?? []).filter((m) => selected.has(m.messageId));
    if (chosen.length === 0) return;
    const name = fullNameWithAge(patient);
    setBusy('chart');
    const loading = showToast(SMS_MESSAGES.addToChartLoading);
    try {
      for (const m of chosen) {
        await messagesApi.addToChart({ patientId: patient.id, from: m.from, to: m.to, text: m.text, timestamp: m.timestamp, files: m.attachments });
      }
      toastQueue.close(loading);
      showToast(SMS_MESSAGES.addToChartSuccess(name), { tone: 'success' });
      setSelected(new Set());
      setSelecting(false);
      void queryClient.invalidateQueries({ queryKey: ['notes'] });
    } catch (error) {
      toastQueue.close(loading);
      showToast(withServerText(SMS_MESSAGES.addToChartError(name), error), { tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const deleteSelected = async () => {
    const chosen = (messages.data?.messages ?? []).filter((m) => selected.has(m.messageId));
    if (chosen.length === 0) return;
    setBusy('delete');
    try {
      for (const noteId of new Set(chosen.map((m) => m.noteId))) await messagesApi.deleteMessage(noteId);
      setSelected(new Set());
      setSelecting(false);
      showToast(`Deleted ${chosen.length} message${chosen.length === 1 ? '' : 's'}`, { tone: 'success' });
    } catch (error) {
      showToast(withServerText(SMS_MESSAGES.deleteMessagesError, error), { tone: 'error' });
    } finally {
      setBusy(null);
      setConfirmDelete(false);
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['notes'] });
    }
  };

  const chooseFrom = (number: string | null) => {
    if (!number) return;
    if (newMessage) setChosenFrom(number);
    else if (patientPhone) void navigate(paths.smsConversation(patientPhone, number), { replace: true });
  };

  // Spec shell §2.10: without a patient on the number, the header names the practice contact who has it.
  const contactName = useContactName(patientPhone, !newMessage && !headerPatient && !sharing.isPending);
  const heading = headerPatient ? fullNameWithAge(headerPatient) : contactName || displayPhone(patientPhone) || 'New message';

  return (
    <section className="tw-page tw-sms-chat" aria-labelledby="sms-chat-title">
      <header className="tw-sms-chat__header">
        {newMessage ? (
          <div className="tw-sms-chat__to">
            <h1 id="sms-chat-title" className="tw-sms-chat__title">
              New message
            </h1>
            <div className="tw-sms-chat__to-fields">
              <span className="tw-sms-chat__to-label" aria-hidden="true">
                To:
              </span>
              <PatientPicker
                label="To:"
                variant="inline"
                value={toPatientId}
                onChange={(id) => {
                  setToPatientId(id);
                  setToPhone(null);
                }}
                className="tw-sms-chat__patient-search"
              />
              {toPhones.length > 1 ? (
                <Select
                  label="Phone"
                  options={toPhones.map((p) => ({ id: p.number, label: `${displayPhone(p.number)} (${p.type})` }))}
                  value={toPhone}
                  onChange={setToPhone}
                  className="tw-sms-chat__phone"
                />
              ) : null}
              {toPatient.data && toPhones.length === 0 ? <p className="tw-sms-chat__note">This patient has no phone number to text.</p> : null}
              {toPatientId || toPhone ? (
                <button
                  type="button"
                  className="tw-sms-link-button"
                  onClick={() => {
                    setToPatientId(null);
                    setToPhone(null);
                    setText('');
                    setFiles([]);
                    setDriveFiles([]);
                  }}
                >
                  Clear
                </button>
              ) : null}
            </div>
          </div>
        ) : (
          <div className="tw-sms-chat__who">
            {headerPatient ? <Avatar firstName={headerPatient.firstName} lastName={headerPatient.lastName} /> : null}
            <div className="tw-sms-chat__who-text">
              <h1 id="sms-chat-title" className="tw-sms-chat__title">
                {heading}
              </h1>
              <p className="tw-sms-chat__subtitle">
                {displayPhone(patientPhone)}
                {conversation.data?.optOut.optedOut ? <span className="tw-sms-chat__opted-out"> · Opted out of texts (replied STOP)</span> : null}
              </p>
            </div>
            {sharing.patients.length > 1 ? (
              <Select
                label="Patients sharing this phone"
                options={sharing.patients.map((p) => ({ id: p.id, label: fullNameWithAge(p) }))}
                value={headerPatient?.id ?? null}
                onChange={setHeaderPatientId}
                className="tw-sms-chat__patients"
              />
            ) : null}
            {headerPatient ? (
              <Link href={paths.patient(headerPatient.id)} className="tw-sms-chat__profile">
                View Profile
              </Link>
            ) : null}
          </div>
        )}
      </header>

      {headerPatient && headerPatient.hipaaAuthorizationAccepted === false ? (
        <WaiverBanner patientId={headerPatient.id} patientName={fullNameWithAge(headerPatient)} />
      ) : null}
      {conversation.data?.optOut.optedOut ? (
        <p className="tw-sms-chat__notice" role="status">
          This number replied STOP: texts to it are refused until the patient replies START.
        </p>
      ) : null}
      <ScheduledRow events={scheduled.data?.events ?? []} />

      <div className="tw-sms-chat__messages" role="region" tabIndex={0} aria-label="Conversation">
        {conversation.isError ? <p className="tw-sms-chat__empty">{withServerText(SMS_MESSAGES.createConversationFailed, conversation.error)}</p> : null}
        {messages.isPending && conversationId ? <Spinner label="Loading messages" /> : null}
        {messages.isError ? <p className="tw-sms-chat__empty">{messages.error.message}</p> : null}
        {shown.length === 0 && !(conversationId && messages.isPending) ? (
          <p className="tw-sms-chat__empty">{newMessage && !toPatientId ? 'Choose a patient to text.' : 'No messages yet.'}</p>
        ) : null}
        <SmsMessageList messages={shown} selecting={selecting} selected={selected} onToggleSelected={toggleSelected} viewAttachments />
        <div ref={bottomRef} />
      </div>

      <SmsComposer
        text={text}
        onTextChange={setText}
        files={files}
        onFilesChange={setFiles}
        driveFiles={driveFiles}
        onDriveFilesChange={setDriveFiles}
        onSend={() => void send()}
        sendDisabled={
          !canSend({ text, files: files.length + driveFiles.length, newMessage, patientChosen: Boolean(toPatientId && toPhone) }) || Boolean(pending)
        }
        selecting={selecting}
        onSelecting={(on) => {
          setSelecting(on);
          if (!on) setSelected(new Set());
        }}
        selectedCount={selected.size}
        onMarkUnread={() => void markUnread()}
        onAddToChart={() => void addToChart()}
        onDelete={() => setConfirmDelete(true)}
        busy={busy}
        chartPatientId={chartPatientId ?? headerPatient?.id ?? null}
        onChartPatientChange={setChartPatientId}
        fromOptions={numbers.options}
        from={from}
        onFromChange={chooseFrom}
        legacyHref={patientPhone && from ? paths.legacySms(patientPhone, from) : null}
        sendLaterHref={patientPhone && from ? paths.newScheduledMessage({ patientId: headerPatient?.id, from, to: patientPhone, text }) : null}
        canSelect={!newMessage && list.length > 0}
      />
      <ConfirmDialog
        isOpen={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete ${selected.size} message${selected.size === 1 ? '' : 's'}?`}
        confirmLabel="Delete"
        tone="danger"
        isPending={busy === 'delete'}
        onConfirm={() => void deleteSelected()}
      >
        The selected messages will be removed from this conversation and from the patient's chart.
      </ConfirmDialog>
    </section>
  );
}
