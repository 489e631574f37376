import { isDueOn } from '../../../../../shared/reminders/reminder-rules.js';
import { Link } from '../../../components/ui/link.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { useShownAnswer } from '../../../lib/use-shown-answer.js';
import type { Notification } from '../../../../../shared/notifications/notification-schema.js';
import { draftLabel } from '../draft-label.js';
import { communicationUnread, useNotificationStore, usePatientNames, useUnreadCount } from '../api/notifications-api.js';
import { useCreateReminder, useOpenReminders } from '../api/reminders-api.js';
import { NewReminder } from './new-reminder.js';

const time = (iso: string) => new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

/** Dashboard: unread calls, SMS and faxes waiting in Communication. */
export function UnreadMessagesWidget() {
  const unread = useShownAnswer(useUnreadCount());
  if (unread.status === 'pending') return <Spinner label="Loading messages" />;
  if (unread.status === 'error') return <p className="tw-widget__empty">{NETWORK_ERROR_MESSAGE}</p>;
  const total = communicationUnread(unread.data);
  const rows = [
    { label: 'Phone calls', count: unread.data.byType.PHONE_CALL ?? 0 },
    { label: 'SMS', count: unread.data.byType.SMS ?? 0 },
    { label: 'Faxes', count: unread.data.byType.FAX ?? 0 },
  ];
  return (
    <>
      <p className="tw-widget__big" data-testid="unread-messages-total">
        {total}
        <span>unread</span>
      </p>
      <ul className="tw-widget__list tw-widget__list--inline">
        {rows.map((r) => (
          <li key={r.label} className="tw-widget__item">
            <span>{r.label}</span>
            <span className="tw-widget__meta">{r.count}</span>
          </li>
        ))}
      </ul>
      <div className="tw-widget__footer">
        <Link href={paths.messages()}>Open Communication</Link>
      </div>
    </>
  );
}

/** Dashboard: draft notes assigned to me (DRAFT notifications). */
const draftPatientId = (n: Notification): string | null => n.patientId ?? (typeof n.data?.patientId === 'string' ? n.data.patientId : null);

export function MyDraftsWidget() {
  const me = useCurrentUser().data?.userId;
  const drafts = useShownAnswer(useNotificationStore('DRAFT'));
  const mine = (drafts.status === 'success' ? drafts.data : []).filter((n) => n.assigned === me).slice(0, 8);
  const names = usePatientNames(mine.flatMap((n) => draftPatientId(n) ?? []));
  if (drafts.status === 'pending') return <Spinner label="Loading drafts" />;
  if (drafts.status === 'error') return <p className="tw-widget__empty">{NETWORK_ERROR_MESSAGE}</p>;
  if (mine.length === 0) return <p className="tw-widget__empty">No drafts waiting for you.</p>;
  return (
    <ul className="tw-widget__list">
      {mine.map((n) => {
        const patientId = draftPatientId(n);
        const label = draftLabel(n.text, patientId ? names.get(patientId) : undefined);
        return (
          <li key={n.notificationId} className="tw-widget__item">
            {patientId ? (
              <Link href={paths.patient(patientId)} className={`tw-widget__link${n.notificationStatus !== 'READ' ? ' tw-widget__link--unread' : ''}`}>
                {label}
              </Link>
            ) : (
              <span className="tw-widget__link">{label}</span>
            )}
            <span className="tw-widget__meta">{new Date(n.lastUpdated).toLocaleDateString('en-US')}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** Dashboard: my reminders that fall due today, by time, and the place to add one. */
export function RemindersTodayWidget() {
  const reminders = useShownAnswer(useOpenReminders());
  const create = useCreateReminder();
  if (reminders.status === 'pending') return <Spinner label="Loading reminders" />;
  if (reminders.status === 'error') return <p className="tw-widget__empty">{NETWORK_ERROR_MESSAGE}</p>;
  const today = new Date();
  const due = reminders.data.filter((r) => isDueOn(r, today)).sort((a, b) => a.dueAt.localeCompare(b.dueAt));
  return (
    <>
      {due.length === 0 ? (
        <p className="tw-widget__empty">No reminders due today.</p>
      ) : (
        <ul className="tw-widget__list">
          {due.map((r) => (
            <li key={r.reminderId} className="tw-widget__item">
              <span className={`tw-widget__link${r.firedAt ? ' tw-widget__link--unread' : ''}`}>{r.text}</span>
              <span className="tw-widget__meta">{time(r.dueAt)}</span>
            </li>
          ))}
        </ul>
      )}
      <NewReminder create={create} />
    </>
  );
}
