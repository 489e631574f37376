import type { SmsMessage } from '../../../../shared/messaging/messaging-schema.js';
import { formatPhone } from '../../../../shared/patients/phone.js';

/** One text as the conversation views show it, whatever call it came from. */
export interface SmsBubble {
  id: string;
  direction: 'inbound' | 'outbound';
  text: string;
  /** ISO time the text was sent or received. */
  timestamp: string;
  attachments?: readonly { name: string; key?: string; url?: string }[];
  /** Delivery status as the carrier reported it (outbound only). */
  status?: string;
  /** Why a FAILED text did not go out. */
  failureReason?: string | null;
  /** The temporary bubble shown while a send is under way. */
  pending?: boolean;
  unread?: boolean;
}

/** A stored text as a bubble; whether it shows as unread is the chat's own call. */
export function smsBubble(m: SmsMessage): SmsBubble {
  return {
    id: m.messageId,
    direction: m.direction,
    text: m.text,
    timestamp: m.timestamp,
    attachments: m.attachments,
    status: m.deliveryStatus === 'RECEIVED' ? undefined : m.deliveryStatus,
    failureReason: m.failureReason,
  };
}

export interface SmsDay {
  /** Spec: chat day separators M/D/YYYY. */
  label: string;
  messages: SmsBubble[];
}

/** Spec: chat day separators read M/D/YYYY, in the browser's time zone. */
export function smsDayLabel(iso: string): string {
  const d = new Date(iso);
  return `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`;
}

/** Spec: a clicked message shows its time as h:mm A. */
export function smsTimeLabel(iso: string): string {
  const d = new Date(iso);
  const hours = d.getHours() % 12 || 12;
  return `${hours}:${String(d.getMinutes()).padStart(2, '0')} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** Oldest first, grouped by day; a pending bubble sorts last. */
export function groupByDay(messages: readonly SmsBubble[]): SmsDay[] {
  const sorted = [...messages].sort((a, b) => (a.pending === b.pending ? a.timestamp.localeCompare(b.timestamp) : a.pending ? 1 : -1));
  const days: SmsDay[] = [];
  for (const message of sorted) {
    const label = smsDayLabel(message.timestamp);
    const last = days.at(-1);
    if (last && last.label === label) last.messages.push(message);
    else days.push({ label, messages: [message] });
  }
  return days;
}

/** Spec: phone numbers display with the default country code +1. */
export function displayPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  const formatted = formatPhone(phone);
  return formatted === phone ? phone : `+1 ${formatted}`;
}
