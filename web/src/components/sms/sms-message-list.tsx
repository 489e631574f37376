import { useState } from 'react';
import { ChatAttachments } from '../files/chat-attachment.js';
import { groupByDay, smsTimeLabel, type SmsBubble } from './sms-format.js';
import './sms.css';

export interface SmsMessageListProps {
  messages: readonly SmsBubble[];
  /** Select mode: every text is a checkbox instead of a button that shows its time. */
  selecting?: boolean;
  selected?: ReadonlySet<string>;
  onToggleSelected?: (id: string) => void;
  /** Names the list for assistive technology. */
  label?: string;
  /** Shows stored attachments in the chat attachment viewer (thumbnails, download cards) instead of by name. */
  viewAttachments?: boolean;
}

/**
 * A two-way SMS conversation (spec notes §2): grouped by day under M/D/YYYY separators, incoming
 * texts on the left and outgoing on the right; a click on a text shows its time (h:mm A).
 */
export function SmsMessageList({ messages, selecting = false, selected, onToggleSelected, label = 'Messages', viewAttachments = false }: SmsMessageListProps) {
  const [shownTimes, setShownTimes] = useState<ReadonlySet<string>>(new Set());
  const toggleTime = (id: string) =>
    setShownTimes((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const days = groupByDay(messages);

  return (
    <div className="tw-sms-list" role="group" aria-label={label}>
      {days.map((day) => (
        <section key={day.label} className="tw-sms-day" aria-label={day.label}>
          <p className="tw-sms-day__separator">
            <span>{day.label}</span>
          </p>
          <ol className="tw-sms-day__messages">
            {day.messages.map((message) => {
              const side = message.direction === 'inbound' ? 'in' : 'out';
              const who = message.direction === 'inbound' ? 'Received' : 'Sent';
              const body = (
                <>
                  <span className="tw-visually-hidden">{who}: </span>
                  <span className="tw-sms-bubble__text">
                    {message.pending ? message.text || 'Sending' : message.text || attachmentsLabel(message.attachments?.length ?? 0)}
                  </span>
                </>
              );
              return (
                <li
                  key={message.id}
                  className={`tw-sms-row tw-sms-row--${side}`}
                  data-testid={message.pending ? 'sms-sending' : 'sms-message'}
                  data-direction={message.direction}
                >
                  {message.pending ? (
                    <div className="tw-sms-bubble tw-sms-bubble--out tw-sms-bubble--pending" role="status">
                      {body}
                      <span className="tw-sms-bubble__meta">Sending</span>
                    </div>
                  ) : selecting ? (
                    <label className={`tw-sms-bubble tw-sms-bubble--${side} tw-sms-bubble--selectable`}>
                      <input
                        type="checkbox"
                        className="tw-sms-bubble__check"
                        checked={selected?.has(message.id) ?? false}
                        onChange={() => onToggleSelected?.(message.id)}
                      />
                      <span>{body}</span>
                    </label>
                  ) : (
                    <button
                      type="button"
                      className={`tw-sms-bubble tw-sms-bubble--${side}${message.unread ? ' tw-sms-bubble--unread' : ''}`}
                      aria-expanded={shownTimes.has(message.id)}
                      onClick={() => toggleTime(message.id)}
                    >
                      {body}
                      {shownTimes.has(message.id) ? (
                        <span className="tw-sms-bubble__meta">
                          {smsTimeLabel(message.timestamp)}
                          {message.status && message.direction === 'outbound' ? ` · ${statusLabel(message.status)}` : ''}
                        </span>
                      ) : null}
                    </button>
                  )}
                  {message.status === 'FAILED' ? (
                    <p className="tw-sms-row__failed">Not delivered{message.failureReason ? `: ${message.failureReason}` : ''}</p>
                  ) : null}
                  {message.attachments?.length ? (
                    viewAttachments && message.attachments.every((file) => file.key) ? (
                      <ChatAttachments files={message.attachments.map((file) => ({ key: file.key ?? '', name: file.name }))} />
                    ) : (
                      <ul className="tw-sms-attachments" aria-label="Attachments">
                        {message.attachments.map((file) => (
                          <li key={file.key ?? file.name}>{file.name}</li>
                        ))}
                      </ul>
                    )
                  ) : null}
                </li>
              );
            })}
          </ol>
        </section>
      ))}
    </div>
  );
}

const STATUS_WORDS: Record<string, string> = { SENDING: 'Sending', DELIVERED: 'Delivered', SENT: 'Sent', FAILED: 'Failed' };
const statusLabel = (status: string) => STATUS_WORDS[status.toUpperCase()] ?? status.charAt(0).toUpperCase() + status.slice(1).toLowerCase();
/** A text sent with files and no words still has a bubble to press for its time and status. */
const attachmentsLabel = (count: number) => (count === 0 ? '' : count === 1 ? '1 attachment' : `${count} attachments`);
