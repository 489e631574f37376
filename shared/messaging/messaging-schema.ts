import * as z from 'zod';
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

const id = z.string().trim().min(1).max(LIMITS.id);

/** A phone number as typed or stored; parsed to the stored form, +1 and ten digits (spec shell §5). */
export const PhoneNumber = z
  .string({ error: MESSAGING_MESSAGES.invalidPhone })
  .trim()
  .max(40)
  .refine(isAllowedPhoneInput, MESSAGING_MESSAGES.invalidPhone)
  .transform((v, ctx) => {
    const normalized = normalizePhone(v);
    if (!normalized) ctx.addIssue({ code: 'custom', message: MESSAGING_MESSAGES.invalidPhone });
    return normalized ?? v;
  });

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
  key: z.string().trim().min(1).max(LIMITS.fileKey + 100),
  name: z.string().trim().min(1).max(LIMITS.shortText),
  contentType: z.string().trim().min(1).max(200),
  size: z.number().int().nonnegative(),
});
export type SmsAttachment = z.infer<typeof SmsAttachment>;

export const SmsAttachmentInput = SmsAttachment.superRefine((f, ctx) => {
  const error = smsAttachmentError(f);
  if (error) ctx.addIssue({ code: 'custom', message: error });
});

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
  failureReason: z.string().nullable(),
  /** Inbound texts start UNREAD; outbound ones are READ. */
  readStatus: z.enum(SMS_READ_STATUSES),
  patientId: z.string().nullable(),
  /** The user who sent it (outbound), null for inbound texts. */
  sentBy: z.string().nullable(),
  /** Set when the text was sent by a scheduled event. */
  scheduledEventId: z.string().nullable(),
  /** The SMS notification of an inbound text. */
  notificationId: z.string().nullable(),
});
export type SmsMessage = z.infer<typeof SmsMessage>;

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
  optedOutAt: z.string().nullable(),
  keyword: z.string().nullable(),
});
export type OptOutStatus = z.infer<typeof OptOutStatus>;

/** The pair of a patient phone and a practice phone, one conversation per pair (spec shell §3 merged view). */
export const Conversation = z.object({
  conversationId: z.string(),
  patientPhoneNumber: z.string(),
  practicePhoneNumber: z.string(),
  /** Patients whose phones include the patient number (several may share one). */
  patientIds: z.array(z.string()),
  readStatus: z.enum(SMS_READ_STATUSES),
  archived: z.boolean(),
  unreadCount: z.number().int().nonnegative(),
  lastMessage: SmsMessage.pick({ messageId: true, direction: true, text: true, timestamp: true, deliveryStatus: true }).nullable(),
  participants: z.array(Participant),
  optOut: OptOutStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof Conversation>;

/** GET /v1/messaging/conversations: spec shell §7.5 offset, limit, search; filter for the hub's tabs. */
export const ConversationListQuery = z.object({
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(CONVERSATION_PAGE_MAX).default(CONVERSATION_PAGE_SIZE),
  search: z.string().trim().max(100).optional(),
  filter: z.enum(CONVERSATION_FILTERS).default('all'),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;
export const ConversationList = z.object({ conversations: z.array(Conversation), total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
export type ConversationList = z.infer<typeof ConversationList>;

/** POST /v1/messaging/conversations: the pair's conversation, created once. */
export const CreateConversationBody = z.object({
  patientPhoneNumber: PhoneNumber,
  practicePhoneNumber: PhoneNumber,
  patientId: id.optional(),
});
export type CreateConversationBody = z.input<typeof CreateConversationBody>;
export const CreateConversationResult = z.object({ conversation: Conversation, created: z.boolean() });
export type CreateConversationResult = z.infer<typeof CreateConversationResult>;

export const ConversationIdParams = z.object({ id: id });
export const ParticipantParams = z.object({ id: id, participantId: id });

/** GET /v1/messaging/conversations/{id}/messages and GET /sms: newest page before `before`, returned oldest first. */
export const MessageListQuery = z.object({
  before: z.iso.datetime({ offset: true, error: 'before must be an ISO date-time' }).optional(),
  limit: z.coerce.number().int().min(1).max(SMS_PAGE_MAX).default(SMS_PAGE_SIZE),
});
export type MessageListQuery = z.infer<typeof MessageListQuery>;
export const MessageList = z.object({ messages: z.array(SmsMessage), hasMore: z.boolean(), conversation: Conversation });
export type MessageList = z.infer<typeof MessageList>;

/** GET /sms?phoneNumber=&before= (spec shell §7.5): a patient phone's history across the practice's numbers. */
export const SmsHistoryQuery = MessageListQuery.extend({ phoneNumber: PhoneNumber });
export type SmsHistoryQuery = z.infer<typeof SmsHistoryQuery>;
export const SmsHistory = z.object({ messages: z.array(SmsMessage), hasMore: z.boolean(), optOut: OptOutStatus });
export type SmsHistory = z.infer<typeof SmsHistory>;

const smsText = z.string().max(SMS_TEXT_MAX, MESSAGING_MESSAGES.textTooLong);

/**
 * POST /v1/messaging/conversations/{id}/messages: sends { text, files?, from? }. `from` is one of the
 * practice's numbers (default: the conversation's). A refused or failed send answers 422 with the
 * message kept as FAILED in `details.message`.
 */
export const SendMessageBody = z
  .object({
    text: smsText.default(''),
    // Type and size are checked by the server against the stored file (smsAttachmentError), answered with the spec's text.
    files: z.array(SmsAttachment).max(SMS_ATTACHMENTS_MAX, MESSAGING_MESSAGES.tooManyFiles).default([]),
    from: PhoneNumber.optional(),
    patientId: id.optional(),
  })
  .refine((b) => b.text.trim().length > 0 || b.files.length > 0, { message: MESSAGING_MESSAGES.textOrFileRequired, path: ['text'] });
export type SendMessageBody = z.input<typeof SendMessageBody>;
export const SendMessageResult = z.object({ message: SmsMessage, conversation: Conversation });
export type SendMessageResult = z.infer<typeof SendMessageResult>;

/** 422 body of a send that did not go out: the spec's toast text, why, and the kept message. */
export const SendFailure = z.object({ message: z.string(), reason: z.string(), failedMessage: SmsMessage.optional() });
export type SendFailure = z.infer<typeof SendFailure>;

/** PUT mark-as-read | mark-as-unread | archive | unarchive: the conversation afterwards. */
export const MarkConversationBody = z.object({ messageIds: z.array(id).max(SMS_PAGE_MAX).optional() }).default({});
export type MarkConversationBody = z.input<typeof MarkConversationBody>;

/** POST /v1/messaging/conversations/{id}/participants with participants. */
export const AddParticipantsBody = z.object({
  participants: z.array(z.object({ type: ParticipantType, refId: id })).min(1).max(PARTICIPANTS_MAX),
});
export type AddParticipantsBody = z.infer<typeof AddParticipantsBody>;

/** GET /v1/messaging/conversations/unread-count: conversations with unread texts, and the texts. */
export const MessagingUnreadCount = z.object({ conversations: z.number().int(), messages: z.number().int() });
export type MessagingUnreadCount = z.infer<typeof MessagingUnreadCount>;

const when = z.iso.datetime({
  offset: true,
  error: (iss) => (iss.input === undefined ? MESSAGING_MESSAGES.scheduledWhenRequired : MESSAGING_MESSAGES.scheduledWhenInvalid),
});

/** The request a scheduled SMS runs: a signed SMS note from → to with text (spec notes §7). */
export const ScheduledSmsRequest = z.object({
  noteType: z.literal(SCHEDULED_SMS.noteType, { error: MESSAGING_MESSAGES.scheduledOnlySms }),
  patientId: id,
  status: z.literal('SIGNED').optional(),
  data: z.object({
    from: PhoneNumber,
    to: PhoneNumber,
    text: smsText,
    subject: z.string().max(LIMITS.shortText).optional(),
  }),
  files: z.array(SmsAttachment).max(SMS_ATTACHMENTS_MAX, MESSAGING_MESSAGES.tooManyFiles).default([]),
});
export type ScheduledSmsRequest = z.infer<typeof ScheduledSmsRequest>;

/** POST /v1/scheduled-events (spec shell §7.5): when, eventType, service, operationId, operationVersion v2, invocations 1, request. */
export const ScheduledEventCreateBody = z.object({
  when,
  eventType: z.literal(SCHEDULED_SMS.eventType).default(SCHEDULED_SMS.eventType),
  service: z.enum(SERVICE_KINDS).default(SCHEDULED_SMS.service),
  operationId: z.string().trim().min(1).max(100).default(SCHEDULED_SMS.operationId),
  operationVersion: z.literal(SCHEDULED_SMS.operationVersion).default(SCHEDULED_SMS.operationVersion),
  invocations: z.literal(SCHEDULED_SMS.invocations).default(SCHEDULED_SMS.invocations),
  request: ScheduledSmsRequest.refine((r) => r.data.text.trim().length > 0 || r.files.length > 0, {
    message: MESSAGING_MESSAGES.textOrFileRequired,
    path: ['data', 'text'],
  }),
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
  invocations: z.number().int(),
  request: z.object({
    noteType: z.string(),
    patientId: z.string(),
    status: z.string().optional(),
    data: z.object({ from: z.string(), to: z.string(), text: z.string(), subject: z.string().optional() }),
    files: z.array(SmsAttachment),
  }),
  status: z.enum(SCHEDULED_EVENT_STATUSES),
  /** The user who scheduled it: told when it fails. */
  author: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Set when it ran: the signed SMS note and the text it sent. */
  noteId: z.string().nullable(),
  messageId: z.string().nullable(),
  completedAt: z.string().nullable(),
  failureReason: z.string().nullable(),
});
export type ScheduledEvent = z.infer<typeof ScheduledEvent>;

const statusList = z
  .string()
  .max(200)
  .transform((s) => s.split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(z.enum(SCHEDULED_EVENT_STATUSES, { error: `status must be among ${SCHEDULED_EVENT_STATUSES.join(', ')}` })).min(1));

/** GET /v1/scheduled-events filters (spec shell §7.5: service, operationId, eventId, status; plus the conversation's numbers). */
export const ScheduledEventListQuery = z.object({
  service: z.string().trim().max(100).optional(),
  operationId: z.string().trim().max(100).optional(),
  eventId: id.optional(),
  status: statusList.optional(),
  patientId: id.optional(),
  to: PhoneNumber.optional(),
  from: PhoneNumber.optional(),
  limit: z.coerce.number().int().min(1).max(SCHEDULED_EVENTS_LIST_MAX).default(SCHEDULED_EVENTS_LIST_MAX),
});
export type ScheduledEventListQuery = z.infer<typeof ScheduledEventListQuery>;
/** Sorted by `when` (spec shell §2.10: the scheduled row expands into a list sorted by when). */
export const ScheduledEventList = z.object({ events: z.array(ScheduledEvent) });
export type ScheduledEventList = z.infer<typeof ScheduledEventList>;
export const ScheduledEventIdParams = z.object({ id: id });

/** Local sandbox carrier (npm start only): POST /local/carrier/sms { from, to, text } is a patient phone's reply. */
export const LocalCarrierInbound = z.object({ from: PhoneNumber, to: PhoneNumber, text: z.string().max(SMS_TEXT_MAX) });
export type LocalCarrierInbound = z.input<typeof LocalCarrierInbound>;
export const LocalCarrierOutbound = z.object({
  messageId: z.string(),
  from: z.string(),
  to: z.string(),
  text: z.string(),
  media: z.array(z.object({ key: z.string(), contentType: z.string(), size: z.number().int() })),
  sentAt: z.string(),
  status: z.enum(['SENT', 'DELIVERED', 'FAILED']),
  configurationSet: z.string().nullable(),
});
export type LocalCarrierOutbound = z.infer<typeof LocalCarrierOutbound>;
export const LocalCarrierOutboundList = z.object({ label: z.string(), messages: z.array(LocalCarrierOutbound) });
export type LocalCarrierOutboundList = z.infer<typeof LocalCarrierOutboundList>;
