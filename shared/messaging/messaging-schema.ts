import * as z from '../zod.js';
import { LIMITS } from '../limits.js';
import { fileExtension } from '../notes/files.js';
import { isAllowedPhoneInput, normalizePhone } from '../patients/phone.js';
import {
  CONVERSATION_FILTERS,
  CONVERSATION_PAGE_MAX,
  CONVERSATION_PAGE_SIZE,
  MESSAGING_MESSAGES,
  PARTICIPANTS_MAX,
  SCHEDULED_EVENT_STATUSES,
  SCHEDULED_EVENTS_LIST_MAX,
  SCHEDULED_SMS,
  SERVICE_KINDS,
  SMS_ATTACHMENT_MAX_BYTES,
  SMS_ATTACHMENT_TYPES,
  SMS_ATTACHMENTS_MAX,
  SMS_DELIVERY_STATUSES,
  SMS_DIRECTIONS,
  SMS_PAGE_MAX,
  SMS_PAGE_SIZE,
  SMS_READ_STATUSES,
  SMS_TEXT_MAX,
} from './messaging-constants.js';

export * from './messaging-constants.js';

const id = z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id));

/** A phone number as typed or stored; parsed to the stored form, +1 and ten digits (spec shell §5). */
export const PhoneNumber = z.pipe(
  z.string({ error: MESSAGING_MESSAGES.invalidPhone }).check(z.trim(), z.maxLength(40), z.refine(isAllowedPhoneInput, MESSAGING_MESSAGES.invalidPhone)),
  z.transform((v, ctx) => {
    const normalized = normalizePhone(v);
    if (!normalized) ctx.issues.push({ code: 'custom', message: MESSAGING_MESSAGES.invalidPhone, input: ctx.value });
    return normalized ?? v;
  }),
);

/** null when the file may be attached to a text, otherwise the spec's message (shell §8 Invalid file). */
export function smsAttachmentError(file: { name: string; contentType?: string | null; size?: number | null }): string | null {
  const ext = fileExtension(file.name);
  const type = (file.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const byType = (SMS_ATTACHMENT_TYPES as Record<string, readonly string[]>)[type];
  if (!ext || !byType || !byType.includes(ext)) return MESSAGING_MESSAGES.invalidFile;
  if (file.size != null && (file.size > SMS_ATTACHMENT_MAX_BYTES || file.size < 0)) return MESSAGING_MESSAGES.invalidFile;
  return null;
}

/** A file of a text: uploaded first (POST /v1/s3/files), then named here; the server checks the stored size and type. */
export const SmsAttachment = z.object({
  key: z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.fileKey + 100)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.shortText)),
  contentType: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  size: z.number().check(z.int(), z.nonnegative()),
});
export type SmsAttachment = z.infer<typeof SmsAttachment>;

export const SmsAttachmentInput = SmsAttachment.check(
  z.superRefine((f, ctx) => {
    const error = smsAttachmentError(f);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  }),
);

/** One text of a conversation (spec notes §3: noteId, from, to, text, timestamp, attachments) with its delivery. */
export const SmsMessage = z.object({
  messageId: z.string(),
  conversationId: z.string(),
  /** The SMS note that holds it (consecutive texts share one note). */
  noteId: z.string(),
  direction: z.enum(SMS_DIRECTIONS),
  from: z.string(),
  to: z.string(),
  text: z.string(),
  timestamp: z.string(),
  attachments: z.array(SmsAttachment),
  deliveryStatus: z.enum(SMS_DELIVERY_STATUSES),
  /** Why a text is FAILED, in words a user can act on. */
  failureReason: z.nullable(z.string()),
  /** Inbound texts start UNREAD; outbound ones are READ. */
  readStatus: z.enum(SMS_READ_STATUSES),
  patientId: z.nullable(z.string()),
  /** The user who sent it (outbound), null for inbound texts. */
  sentBy: z.nullable(z.string()),
  /** Set when the text was sent by a scheduled event. */
  scheduledEventId: z.nullable(z.string()),
  /** The SMS notification of an inbound text. */
  notificationId: z.nullable(z.string()),
});
export type SmsMessage = z.infer<typeof SmsMessage>;

/** What an SMS note's data holds: the text and its delivery; texts stored before a field was kept read it as empty. */
export const SmsNoteData = z.object({
  from: z.string(),
  to: z.string(),
  text: z._default(z.string(), ''),
  direction: z.enum(SMS_DIRECTIONS),
  deliveryStatus: z.enum(SMS_DELIVERY_STATUSES),
  failureReason: z._default(z.nullable(z.string()), null),
  conversationId: z.string(),
  practicePhoneNumber: z.string(),
  patientPhoneNumber: z.string(),
  carrierMessageIds: z._default(z.array(z.string()), []),
  sentBy: z._default(z.nullable(z.string()), null),
  scheduledEventId: z._default(z.nullable(z.string()), null),
  notificationId: z._default(z.nullable(z.string()), null),
  timestamp: z.string(),
});
export type SmsNoteData = z.infer<typeof SmsNoteData>;

export const ParticipantType = z.enum(['user', 'patient', 'contact']);
export const Participant = z.object({
  participantId: z.string(),
  type: ParticipantType,
  /** userId, patientId or contactId. */
  refId: z.string(),
  addedAt: z.string(),
  addedBy: z.string(),
});
export type Participant = z.infer<typeof Participant>;

/** A phone's opt-out state as the carrier holds it. */
export const OptOutStatus = z.object({
  phoneNumber: z.string(),
  optedOut: z.boolean(),
  /** When it replied the opt-out keyword, null when not opted out. */
  optedOutAt: z.nullable(z.string()),
  keyword: z.nullable(z.string()),
});
export type OptOutStatus = z.infer<typeof OptOutStatus>;

/** A text as a conversation's summary keeps it. */
export const ConversationMessageSummary = z.pick(SmsMessage, { messageId: true, direction: true, text: true, timestamp: true, deliveryStatus: true });
export type ConversationMessageSummary = z.infer<typeof ConversationMessageSummary>;

/** The pair of a patient phone and a practice phone, one conversation per pair (spec shell §3 merged view). */
export const Conversation = z.object({
  conversationId: z.string(),
  patientPhoneNumber: z.string(),
  practicePhoneNumber: z.string(),
  /** Patients whose phones include the patient number (several may share one). */
  patientIds: z.array(z.string()),
  readStatus: z.enum(SMS_READ_STATUSES),
  archived: z.boolean(),
  unreadCount: z.number().check(z.int(), z.nonnegative()),
  lastMessage: z.nullable(ConversationMessageSummary),
  /**
   * The text the conversation list shows: while the conversation is unread, the latest text the
   * patient sent (a reminder the practice texted after it does not hide the question to answer);
   * otherwise the last message.
   */
  preview: z.nullable(ConversationMessageSummary),
  participants: z.array(Participant),
  optOut: OptOutStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof Conversation>;

/** A conversation as the table keeps it: without what is derived on read, with the fields kept for reads and search. */
export const ConversationRecord = z.extend(z.omit(Conversation, { optOut: true, preview: true }), {
  /** Inbound texts after this instant are unread. */
  lastReadAt: z.string(),
  patientNames: z._default(z.array(z.string()), []),
  /** The latest text the patient sent, kept beside lastMessage so the list's preview reads this item only. */
  lastInbound: z.optional(z.nullable(ConversationMessageSummary)),
});
export type ConversationRecord = z.infer<typeof ConversationRecord>;

/** GET /v1/messaging/conversations: spec shell §7.5 offset, limit, search; filter for the hub's tabs. */
export const ConversationListQuery = z.object({
  offset: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(CONVERSATION_PAGE_MAX)), CONVERSATION_PAGE_SIZE),
  search: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  filter: z._default(z.enum(CONVERSATION_FILTERS), 'all'),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;
export const ConversationList = z.object({
  conversations: z.array(Conversation),
  total: z.number().check(z.int()),
  offset: z.number().check(z.int()),
  limit: z.number().check(z.int()),
});
export type ConversationList = z.infer<typeof ConversationList>;

/** POST /v1/messaging/conversations: the pair's conversation, created once. */
export const CreateConversationBody = z.object({
  patientPhoneNumber: PhoneNumber,
  practicePhoneNumber: PhoneNumber,
  patientId: z.optional(id),
});
export type CreateConversationBody = z.input<typeof CreateConversationBody>;
export const CreateConversationResult = z.object({ conversation: Conversation, created: z.boolean() });
export type CreateConversationResult = z.infer<typeof CreateConversationResult>;

export const ConversationIdParams = z.object({ id: id });
export const ParticipantParams = z.object({ id: id, participantId: id });

/** GET /v1/messaging/conversations/{id}/messages and GET /sms: newest page before `before`, returned oldest first. */
export const MessageListQuery = z.object({
  before: z.optional(z.iso.datetime({ offset: true, error: 'before must be an ISO date-time' })),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(SMS_PAGE_MAX)), SMS_PAGE_SIZE),
});
export type MessageListQuery = z.infer<typeof MessageListQuery>;
export const MessageList = z.object({ messages: z.array(SmsMessage), hasMore: z.boolean(), conversation: Conversation });
export type MessageList = z.infer<typeof MessageList>;

/** GET /sms?phoneNumber=&before= (spec shell §7.5): a patient phone's history across the practice's numbers. */
export const SmsHistoryQuery = z.extend(MessageListQuery, { phoneNumber: PhoneNumber });
export type SmsHistoryQuery = z.infer<typeof SmsHistoryQuery>;
export const SmsHistory = z.object({ messages: z.array(SmsMessage), hasMore: z.boolean(), optOut: OptOutStatus });
export type SmsHistory = z.infer<typeof SmsHistory>;

const smsText = z.string().check(z.maxLength(SMS_TEXT_MAX, MESSAGING_MESSAGES.textTooLong));

/**
 * POST /v1/messaging/conversations/{id}/messages: sends { text, files?, from? }. `from` is one of the
 * practice's numbers (default: the conversation's). A refused or failed send answers 422 with the
 * message kept as FAILED in `details.message`.
 */
export const SendMessageBody = z
  .object({
    text: z._default(smsText, ''),
    // Type and size are checked by the server against the stored file (smsAttachmentError), answered with the spec's text.
    files: z._default(z.array(SmsAttachment).check(z.maxLength(SMS_ATTACHMENTS_MAX, MESSAGING_MESSAGES.tooManyFiles)), []),
    from: z.optional(PhoneNumber),
    patientId: z.optional(id),
  })
  .check(z.refine((b) => b.text.trim().length > 0 || b.files.length > 0, { message: MESSAGING_MESSAGES.textOrFileRequired, path: ['text'] }));
export type SendMessageBody = z.input<typeof SendMessageBody>;
export const SendMessageResult = z.object({ message: SmsMessage, conversation: Conversation });
export type SendMessageResult = z.infer<typeof SendMessageResult>;

/** 422 body of a send that did not go out: the spec's toast text, why, and the kept message. */
export const SendFailure = z.object({ message: z.string(), reason: z.string(), failedMessage: z.optional(SmsMessage) });
export type SendFailure = z.infer<typeof SendFailure>;

/** PUT mark-as-read | mark-as-unread | archive | unarchive: the conversation afterwards. */
export const MarkConversationBody = z._default(z.object({ messageIds: z.optional(z.array(id).check(z.maxLength(SMS_PAGE_MAX))) }), {});
export type MarkConversationBody = z.input<typeof MarkConversationBody>;

/** POST /v1/messaging/conversations/{id}/participants with participants. */
export const AddParticipantsBody = z.object({
  participants: z.array(z.object({ type: ParticipantType, refId: id })).check(z.minLength(1), z.maxLength(PARTICIPANTS_MAX)),
});
export type AddParticipantsBody = z.infer<typeof AddParticipantsBody>;

/** GET /v1/messaging/conversations/unread-count: conversations with unread texts, and the texts. */
export const MessagingUnreadCount = z.object({ conversations: z.number().check(z.int()), messages: z.number().check(z.int()) });
export type MessagingUnreadCount = z.infer<typeof MessagingUnreadCount>;

const when = z.iso.datetime({
  offset: true,
  error: (iss) => (iss.input === undefined ? MESSAGING_MESSAGES.scheduledWhenRequired : MESSAGING_MESSAGES.scheduledWhenInvalid),
});

/** The request a scheduled SMS runs: a signed SMS note from → to with text (spec notes §7). */
export const ScheduledSmsRequest = z.object({
  noteType: z.literal(SCHEDULED_SMS.noteType, { error: MESSAGING_MESSAGES.scheduledOnlySms }),
  patientId: id,
  status: z.optional(z.literal('SIGNED')),
  data: z.object({
    from: PhoneNumber,
    to: PhoneNumber,
    text: smsText,
    subject: z.optional(z.string().check(z.maxLength(LIMITS.shortText))),
  }),
  files: z._default(z.array(SmsAttachment).check(z.maxLength(SMS_ATTACHMENTS_MAX, MESSAGING_MESSAGES.tooManyFiles)), []),
});
export type ScheduledSmsRequest = z.infer<typeof ScheduledSmsRequest>;

/** POST /v1/scheduled-events (spec shell §7.5): when, eventType, service, operationId, operationVersion v2, invocations 1, request. */
export const ScheduledEventCreateBody = z.object({
  when,
  eventType: z._default(z.literal(SCHEDULED_SMS.eventType), SCHEDULED_SMS.eventType),
  service: z._default(z.enum(SERVICE_KINDS), SCHEDULED_SMS.service),
  operationId: z._default(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)), SCHEDULED_SMS.operationId),
  operationVersion: z._default(z.literal(SCHEDULED_SMS.operationVersion), SCHEDULED_SMS.operationVersion),
  invocations: z._default(z.literal(SCHEDULED_SMS.invocations), SCHEDULED_SMS.invocations),
  request: ScheduledSmsRequest.check(
    z.refine((r) => r.data.text.trim().length > 0 || r.files.length > 0, {
      message: MESSAGING_MESSAGES.textOrFileRequired,
      path: ['data', 'text'],
    }),
  ),
});
export type ScheduledEventCreateBody = z.input<typeof ScheduledEventCreateBody>;

/** PUT /v1/scheduled-events/{id}: change the time of an active event. */
export const ScheduledEventUpdateBody = z.object({ when });
export type ScheduledEventUpdateBody = z.infer<typeof ScheduledEventUpdateBody>;

export const ScheduledEvent = z.object({
  eventId: z.string(),
  when: z.string(),
  eventType: z.string(),
  service: z.string(),
  operationId: z.string(),
  operationVersion: z.string(),
  invocations: z.number().check(z.int()),
  request: z.object({
    noteType: z.string(),
    patientId: z.string(),
    status: z.optional(z.string()),
    data: z.object({ from: z.string(), to: z.string(), text: z.string(), subject: z.optional(z.string()) }),
    files: z.array(SmsAttachment),
  }),
  status: z.enum(SCHEDULED_EVENT_STATUSES),
  /** The user who scheduled it: told when it fails. */
  author: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Set when it ran: the signed SMS note and the text it sent. */
  noteId: z.nullable(z.string()),
  messageId: z.nullable(z.string()),
  completedAt: z.nullable(z.string()),
  failureReason: z.nullable(z.string()),
});
export type ScheduledEvent = z.infer<typeof ScheduledEvent>;

const statusList = z.pipe(
  z.pipe(
    z.string().check(z.maxLength(200)),
    z.transform((s) => s.split(/[\s,]+/).filter(Boolean)),
  ),
  z.array(z.enum(SCHEDULED_EVENT_STATUSES, { error: `status must be among ${SCHEDULED_EVENT_STATUSES.join(', ')}` })).check(z.minLength(1)),
);

/** GET /v1/scheduled-events filters (spec shell §7.5: service, operationId, eventId, status; plus the conversation's numbers). */
export const ScheduledEventListQuery = z.object({
  service: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  operationId: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  eventId: z.optional(id),
  status: z.optional(statusList),
  patientId: z.optional(id),
  to: z.optional(PhoneNumber),
  from: z.optional(PhoneNumber),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(SCHEDULED_EVENTS_LIST_MAX)), SCHEDULED_EVENTS_LIST_MAX),
});
export type ScheduledEventListQuery = z.infer<typeof ScheduledEventListQuery>;
/** Sorted by `when` (spec shell §2.10: the scheduled row expands into a list sorted by when). */
export const ScheduledEventList = z.object({ events: z.array(ScheduledEvent) });
export type ScheduledEventList = z.infer<typeof ScheduledEventList>;
export const ScheduledEventIdParams = z.object({ id: id });

/** Local sandbox carrier (npm start only): POST /local/carrier/sms { from, to, text } is a patient phone's reply. */
export const LocalCarrierInbound = z.object({ from: PhoneNumber, to: PhoneNumber, text: z.string().check(z.maxLength(SMS_TEXT_MAX)) });
export type LocalCarrierInbound = z.input<typeof LocalCarrierInbound>;
export const LocalCarrierOutbound = z.object({
  messageId: z.string(),
  from: z.string(),
  to: z.string(),
  text: z.string(),
  media: z.array(z.object({ key: z.string(), contentType: z.string(), size: z.number().check(z.int()) })),
  sentAt: z.string(),
  status: z.enum(['SENT', 'DELIVERED', 'FAILED']),
  configurationSet: z.nullable(z.string()),
});
export type LocalCarrierOutbound = z.infer<typeof LocalCarrierOutbound>;
export const LocalCarrierOutboundList = z.object({ label: z.string(), messages: z.array(LocalCarrierOutbound) });
export type LocalCarrierOutboundList = z.infer<typeof LocalCarrierOutboundList>;
