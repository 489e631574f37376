import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { MESSAGING_MESSAGES } from '../../../../../shared/messaging/messaging-constants.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { normalizePhone } from '../../../../../shared/patients/phone.js';
import { displayPhone, smsBubble, type SmsBubble } from '../../../components/sms/sms-format.js';
import { SmsMessageList } from '../../../components/sms/sms-message-list.js';
import { Button } from '../../../components/ui/button.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { messagingKeys } from '../../../lib/messaging.js';
import { paths } from '../../../lib/paths.js';
import { usePracticeMetadata } from '../../../lib/practice.js';
import { markMessagesUnread, useSmsHistory } from '../../../lib/sms.js';
import { showToast, toastQueue } from '../../../lib/toasts.js';

/**
 * An SMS note in the chart (spec notes §2 SMS view): its conversation, read-only, with a Select
 * Messages mode whose Mark as Unread returns the texts to the hub. A text added to the chart from
 * the chat is a note of its own and shows only its words.
 */
export function SmsNoteView({ note }: { note: Note }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const practice = usePracticeMetadata();
  const practiceNumbers = useMemo(
    () =>
      new Set(
        [practice.data?.phoneNumber, ...(practice.data?.additionalPhoneNumbers ?? []).map((p) => p.phoneNumber)].flatMap((n) =>
          n ? [normalizePhone(n) ?? n] : [],
        ),
      ),
    [practice.data],
  );
  const from = normalizePhone(note.data.from ?? '') ?? note.data.from ?? '';
  const to = normalizePhone(note.data.to ?? '') ?? note.data.to ?? '';
  // A text brought in from an export carries no numbers, only which way it went.
  const inbound = from || to ? practiceNumbers.has(to) && !practiceNumbers.has(from) : note.data.direction === 'inbound';
  const patientPhone = practice.isSuccess ? (inbound ? from : to) || null : null;
  const history = useSmsHistory(patientPhone);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);

  // Consecutive SMS notes merge into one conversation (spec notes §3): the texts of this note's
  // conversation (the same patient phone and practice number) around it.
  const held = useMemo(() => {
    const all = history.data?.messages ?? [];
    const own = all.find((m) => m.noteId === note.noteId);
    return own ? all.filter((m) => m.conversationId === own.conversationId) : [];
  }, [history.data, note.noteId]);
  const bubbles: SmsBubble[] = held.length
    ? held.map(smsBubble)
    : [{ id: note.noteId, direction: inbound ? 'inbound' : 'outbound', text: note.data.text ?? '', timestamp: note.eventTimestamp, attachments: note.files }];
  const conversationId = held[0]?.conversationId;

  const markUnread = async () => {
    if (!conversationId || selected.size === 0) return;
    setBusy(true);
    const loading = showToast(MESSAGING_MESSAGES.markUnreadLoading);
    try {
      await markMessagesUnread(conversationId, [...selected]);
      toastQueue.close(loading);
      showToast(MESSAGING_MESSAGES.markUnreadSuccess, { tone: 'success' });
      void queryClient.invalidateQueries({ queryKey: messagingKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
      void navigate(paths.messages());
    } catch (error) {
      toastQueue.close(loading);
      showToast(`${MESSAGING_MESSAGES.markUnreadError}${error instanceof Error && error.message ? ` ${error.message}` : ''}`, { tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="tw-sms-note" aria-label="SMS conversation">
      <p className="tw-sms-note__phones">
        From {displayPhone(note.data.from)} to {displayPhone(note.data.to)}
      </p>
      <div className="tw-sms-note__tools">
        {selecting ? (
          <>
            <Button
              size="sm"
              onPress={() => {
                setSelecting(false);
                setSelected(new Set());
              }}
            >
              Cancel Selecting
            </Button>
            {conversationId ? (
              <Button size="sm" isDisabled={selected.size === 0} isPending={busy} onPress={() => void markUnread()}>
                Mark as Unread
              </Button>
            ) : null}
          </>
        ) : (
          <Button size="sm" onPress={() => setSelecting(true)}>
            Select Messages
          </Button>
        )}
      </div>
      {history.isPending && patientPhone ? <Spinner label="Loading messages" /> : null}
      <SmsMessageList
        messages={bubbles}
        selecting={selecting}
        selected={selected}
        onToggleSelected={(id) =>
          setSelected((current) => {
            const next = new Set(current);
            if (next.has(id)) next.delete(id);
            else next.add(id);
            return next;
          })
        }
      />
    </section>
  );
}
