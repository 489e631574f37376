import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { smsDayLabel, smsTimeLabel } from '../../../components/sms/sms-format.js';
import { paths } from '../../../lib/paths.js';
import type { ScheduledEvent } from '../api/messages-api.js';
import { SMS_MESSAGES } from '../sms-rules.js';

/** Spec shell §2.10: 'N scheduled message(s)', expanding into the list sorted by when. */
export function ScheduledRow({ events }: { events: readonly ScheduledEvent[] }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (events.length === 0) return null;
  const sorted = [...events].sort((a, b) => a.when.localeCompare(b.when));
  return (
    <div className="tw-scheduled-row" data-testid="scheduled-row">
      <button type="button" className="tw-scheduled-row__toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((v) => !v)}>
        {SMS_MESSAGES.scheduledCount(events.length)}
      </button>
      <ul id={listId} hidden={!open} className="tw-scheduled-row__list">
        {sorted.map((event) => (
          <li key={event.eventId}>
            <RouterLink to={paths.scheduledMessage(event.eventId)} className="tw-link">
              {smsDayLabel(event.when)} {smsTimeLabel(event.when)}
            </RouterLink>{' '}
            <span className="tw-scheduled-row__text">{event.request.data.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
