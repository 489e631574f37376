import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { displayPhone, smsDayLabel, smsTimeLabel } from '../../../components/sms/sms-format.js';
import { Button } from '../../../components/ui/button.js';
import { PlusIcon } from '../../../components/ui/icons.js';
import { Link } from '../../../components/ui/link.js';
import { Page } from '../../../components/ui/page.js';
import { SearchField } from '../../../components/ui/search-field.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { messagingKeys, type ConversationView } from '../../../lib/messaging.js';
import { paths } from '../../../lib/paths.js';
import { usePatientsById } from '../../../lib/patients.js';
import { showToast } from '../../../lib/toasts.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { CONVERSATION_PAGE_SIZE, messagesApi, useConversationList, type Conversation } from '../api/messages-api.js';
import { SMS_MESSAGES, withServerText } from '../sms-rules.js';
import '../messages.css';

const VIEWS: { id: ConversationView; label: string }[] = [
  { id: 'unread', label: 'Unread' },
  { id: 'read', label: 'Read' },
  { id: 'archived', label: 'Archived' },
];

/** Spec shell §9: history search debounce 500 ms. */
const SEARCH_DEBOUNCE_MS = 500;

const isView = (value: string | null): value is ConversationView => VIEWS.some((v) => v.id === value);

/** The Communication hub (spec shell §2.10): SMS conversations, unread, read or archived, searchable. */
export function MessagesHubPage() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const viewParam = search.get('view');
  const view: ConversationView = isView(viewParam) ? viewParam : 'unread';
  const [typed, setTyped] = useState(search.get('search') ?? '');
  const debounced = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const [offset, setOffset] = useState(0);
  useEffect(() => setOffset(0), [view, debounced]);
  const list = useConversationList({ view, search: debounced, offset });
  const conversations = list.data?.conversations ?? [];
  const total = list.data?.total ?? 0;
  const patients = usePatientsById(conversations.flatMap((c) => c.patientIds.slice(0, 1)));
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    if (list.isError) showToast(withServerText(SMS_MESSAGES.loadConversationsFailed, list.error), { tone: 'error' });
  }, [list.isError, list.error]);

  const setView = (next: ConversationView) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('view', next);
        return params;
      },
      { replace: true },
    );

  const act = async (conversation: Conversation, action: 'read' | 'archive' | 'unarchive') => {
    setBusy(conversation.conversationId);
    try {
      if (action === 'read') await messagesApi.markRead(conversation.conversationId);
      else if (action === 'archive') await messagesApi.archive(conversation.conversationId);
      else await messagesApi.unarchive(conversation.conversationId);
      await queryClient.invalidateQueries({ queryKey: messagingKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['notifications'] });
    } catch (error) {
      showToast(withServerText(action === 'read' ? SMS_MESSAGES.markReadFailed : SMS_MESSAGES.archiveFailed, error), { tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const nameOf = (c: Conversation) => {
    const patient = c.patientIds[0] ? patients.get(c.patientIds[0]) : undefined;
    if (patient) return c.patientIds.length > 1 ? `${fullNameWithAge(patient)} and ${c.patientIds.length - 1} more` : fullNameWithAge(patient);
    return displayPhone(c.patientPhoneNumber);
  };

  return (
    <Page
      title="Communication"
      subtitle={list.isSuccess ? `${total} ${VIEWS.find((v) => v.id === view)?.label.toLowerCase()} conversation${total === 1 ? '' : 's'}` : undefined}
      actions={
        <>
          <Link href={paths.calls()} className="tw-messages__new">
            Phone calls
          </Link>
          <Link href={paths.faxes()} className="tw-messages__new">
            Faxes
          </Link>
          <Link variant="primary" href={paths.newSms()} className="tw-messages__new">
            <PlusIcon /> New message
          </Link>
        </>
      }
    >
      <div className="tw-card tw-messages">
        <div className="tw-messages__toolbar">
          <nav aria-label="Conversations" className="tw-messages__views">
            {VIEWS.map((v) => (
              <RouterLink
                key={v.id}
                to={`${paths.messages()}?view=${v.id}`}
                className="tw-messages__view"
                aria-current={v.id === view ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  setView(v.id);
                }}
              >
                {v.label}
              </RouterLink>
            ))}
          </nav>
          <SearchField label="Search conversations" placeholder="Search name or number" value={typed} onChange={setTyped} className="tw-messages__search" />
        </div>
        {list.isPending ? <Spinner label="Loading conversations" /> : null}
        {list.isError ? <p className="tw-messages__empty">{withServerText(SMS_MESSAGES.fetchConversationsFailed, list.error)}</p> : null}
        {list.isSuccess && conversations.length === 0 ? (
          <p className="tw-messages__empty">
            No {view} conversations{debounced ? ' match this search' : ''}.
          </p>
        ) : null}
        {conversations.length > 0 ? (
          <ul className="tw-conversations" aria-label={`${VIEWS.find((v) => v.id === view)?.label} conversations`}>
            {conversations.map((c) => {
              const unread = c.readStatus === 'UNREAD' && !c.archived;
              const name = nameOf(c);
              return (
                <li key={c.conversationId} className={`tw-conversation${unread ? ' tw-conversation--unread' : ''}`} data-testid="conversation">
                  <RouterLink to={paths.smsConversation(c.patientPhoneNumber, c.practicePhoneNumber)} className="tw-conversation__open">
                    <span className="tw-conversation__line">
                      <span className="tw-conversation__name">{name}</span>
                      {unread ? <span className="tw-conversation__dot">Unread</span> : null}
                      {c.preview ? (
                        <span className="tw-conversation__time">
                          {smsDayLabel(c.preview.timestamp)} {smsTimeLabel(c.preview.timestamp)}
                        </span>
                      ) : null}
                    </span>
                    <span className="tw-conversation__snippet">
                      {c.preview ? `${c.preview.direction === 'outbound' ? 'You: ' : ''}${c.preview.text}` : 'No messages yet'}
                    </span>
                    <span className="tw-conversation__phones">
                      {displayPhone(c.patientPhoneNumber)} · to {displayPhone(c.practicePhoneNumber)}
                      {c.optOut.optedOut ? ' · opted out of texts' : ''}
                    </span>
                  </RouterLink>
                  <span className="tw-conversation__actions">
                    {unread ? (
                      <Button
                        size="sm"
                        variant="quiet"
                        isPending={busy === c.conversationId}
                        onPress={() => void act(c, 'read')}
                        aria-label={`Mark ${name} as read`}
                      >
                        Mark as Read
                      </Button>
                    ) : null}
                    {c.archived ? (
                      <Button
                        size="sm"
                        variant="quiet"
                        isPending={busy === c.conversationId}
                        onPress={() => void act(c, 'unarchive')}
                        aria-label={`Unarchive ${name}`}
                      >
                        Unarchive
                      </Button>
                    ) : (
                      <Button
                        size="sm"
                        variant="quiet"
                        isPending={busy === c.conversationId}
                        onPress={() => void act(c, 'archive')}
                        aria-label={`Archive ${name}`}
                      >
                        Archive
                      </Button>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
        ) : null}
        {total > CONVERSATION_PAGE_SIZE ? (
          <footer className="tw-messages__pager">
            <span>
              {offset + 1}–{Math.min(offset + CONVERSATION_PAGE_SIZE, total)} of {total}
            </span>
            <Button size="sm" isDisabled={offset === 0} onPress={() => setOffset(Math.max(0, offset - CONVERSATION_PAGE_SIZE))}>
              Previous
            </Button>
            <Button size="sm" isDisabled={offset + CONVERSATION_PAGE_SIZE >= total} onPress={() => setOffset(offset + CONVERSATION_PAGE_SIZE)}>
              Next
            </Button>
          </footer>
        ) : null}
      </div>
    </Page>
  );
}
