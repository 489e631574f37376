/*
 * Two-way SMS and scheduled texts (spec shell §2.10, §3, §4, §7.5, §8, §9; notes §3–§5, §7, §8):
 * limits, statuses, the spec's texts and the route paths, without the schema library so a first
 * screen can import them.
 */

/** Spec shell §9 / notes §9: an SMS attachment is at most 5,000,000 bytes. */
export const SMS_ATTACHMENT_MAX_BYTES = 5_000_000;
/** Files one message may carry (not in the spec; the carrier sends one media file per message part). */
export const SMS_ATTACHMENTS_MAX = 5;
/** Characters of one text: the carrier's MMS body limit, also kept for plain texts. */
export const SMS_TEXT_MAX = 1600;

/**
 * The allowed attachment types: the media AWS End User Messaging SMS accepts for MMS, by MIME type
 * with the file extensions that carry it. A file passes when its extension and its type agree.
 */
export const SMS_ATTACHMENT_TYPES = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/tiff': ['tif', 'tiff'],
  'audio/mpeg': ['mp3'],
  'audio/mp4': ['m4a'],
  'audio/ogg': ['ogg'],
  'audio/amr': ['amr'],
  'audio/3gpp': ['3gp'],
  'video/mp4': ['mp4'],
  'video/3gpp': ['3gp'],
  'video/quicktime': ['mov'],
  'video/webm': ['webm'],
  'text/calendar': ['ics'],
  'text/vcard': ['vcf'],
  'text/x-vcard': ['vcf'],
  'application/pdf': ['pdf'],
} as const satisfies Record<string, readonly string[]>;
export type SmsAttachmentType = keyof typeof SMS_ATTACHMENT_TYPES;
export const SMS_ATTACHMENT_MIME_TYPES = Object.keys(SMS_ATTACHMENT_TYPES) as SmsAttachmentType[];
export const SMS_ATTACHMENT_EXTENSIONS: readonly string[] = [...new Set(Object.values(SMS_ATTACHMENT_TYPES).flat())];
/** The `accept` attribute of the attach input. */
export const SMS_ATTACHMENT_ACCEPT = [...SMS_ATTACHMENT_EXTENSIONS.map((e) => `.${e}`), ...SMS_ATTACHMENT_MIME_TYPES].join(',');

/**
 * Delivery of one message. Outbound: SENDING (handed to the carrier) → SENT (accepted) → DELIVERED
 * (handset receipt) or FAILED (refused or undeliverable; the message is kept). Inbound: RECEIVED.
 */
export const SMS_DELIVERY_STATUSES = ['SENDING', 'SENT', 'DELIVERED', 'FAILED', 'RECEIVED'] as const;
export type SmsDeliveryStatus = (typeof SMS_DELIVERY_STATUSES)[number];
export const SMS_DIRECTIONS = ['inbound', 'outbound'] as const;
export type SmsDirection = (typeof SMS_DIRECTIONS)[number];
/** Read state of a message and of a conversation (spec shell §3: read or unread, archived or unarchived). */
export const SMS_READ_STATUSES = ['UNREAD', 'READ'] as const;
export type SmsReadStatus = (typeof SMS_READ_STATUSES)[number];

/** Conversation list filters of the /messages screen. */
export const CONVERSATION_FILTERS = ['all', 'unread', 'read', 'archived'] as const;
export type ConversationFilter = (typeof CONVERSATION_FILTERS)[number];
/** Spec shell §9: chat and conversation page size. */
export const CONVERSATION_PAGE_SIZE = 25;
export const CONVERSATION_PAGE_MAX = 100;
export const SMS_PAGE_SIZE = 25;
export const SMS_PAGE_MAX = 100;
export const PARTICIPANTS_MAX = 20;

/**
 * Opt-out the way AWS End User Messaging SMS does it: a reply that is one of these keywords
 * (case-insensitive, the whole text) opts the phone out of texts from the practice's numbers;
 * an opt-in keyword reverses it.
 */
export const OPT_OUT_KEYWORDS = ['ARRET', 'CANCEL', 'END', 'OPT-OUT', 'OPTOUT', 'QUIT', 'REMOVE', 'STOP', 'TD', 'UNSUBSCRIBE'] as const;
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP'] as const;
export type OptKeywordAction = 'opt-out' | 'opt-in';

/** The keyword action a reply triggers, or null for an ordinary text. */
export function optKeywordAction(text: string): OptKeywordAction | null {
  const word = text.trim().toUpperCase();
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return 'opt-out';
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(word)) return 'opt-in';
  return null;
}

/** Scheduled events (spec shell §3, §7.5; notes §7). */
export const SCHEDULED_EVENT_STATUSES = ['active', 'processing', 'completed', 'failed', 'deleted'] as const;
export type ScheduledEventStatus = (typeof SCHEDULED_EVENT_STATUSES)[number];
/** What POST /v1/scheduled-events creates: a scheduled signed SMS note, run once. */
export const SCHEDULED_SMS = {
  eventType: 'createScheduledNote',
  service: 'notes',
  operationId: 'createNote',
  operationVersion: 'v2',
  invocations: 1,
  noteType: 'SMS',
} as const;
/** Spec shell §3 service kinds. */
export const SERVICE_KINDS = [
  'patients',
  'practices',
  'notes',
  'ai',
  'inventories',
  'files',
  'nationaldrugcodes',
  'reminders',
  'companies',
  'logins',
  'scheduled-events',
  'calendars',
  'messaging',
  'core',
  'ecs-ai',
] as const;
/** How soon a scheduled text may be due (not in the spec: the scheduler's one-minute granularity). */
export const SCHEDULED_EVENT_MIN_LEAD_MS = 0;
export const SCHEDULED_EVENTS_LIST_MAX = 200;

/** The spec's texts (shell §8, notes §8) and the server's own messages. */
export const MESSAGING_MESSAGES = {
  // Toasts of the error catalogue, word for word.
  sendFailed: 'There was an error while sending your sms.',
  invalidFile: 'A selected file is either an unsupported file type or too large.',
  markUnreadLoading: 'Updating messages',
  markUnreadSuccess: 'Successfully updated messages',
  markUnreadError: 'There was an error marking the messages as unread',
  addToChartLoading: 'Adding messages to chart',
  addToChartSuccess: (name: string) => `Successfully added messages to ${name}'s chart`,
  addToChartSuccessPatient: "Successfully added messages to the patient's chart",
  addToChartError: (name: string) => `There was an error saving the messages, please check ${name}'s chart and add the messages that are missing.`,
  deleteMessagesError: 'There was an error deleting the messages.',
  selectPatient: 'Please select a patient',
  fetchConversationsFailed: 'Failed to fetch conversations from API',
  loadConversationsFailed: 'Failed to load conversations',
  sendViaApiFailed: 'Failed to send message via API',
  createConversationFailed: 'Failed to create conversation via API',
  markReadFailed: 'Failed to mark conversation as read',
  archiveFailed: 'Failed to archive conversation',
  acceptWaiverFailed: 'Failed to accept HIPAA authorization',
  requestWaiverFailed: 'Failed to request HIPAA waiver acceptance',
  userMissingPhone: 'User missing phone number',
  // Fixed screen texts.
  composerPlaceholder: 'Type message...',
  searchPlaceholder: 'Search name or number',
  patientSearchHint: 'Type to search a patient name',
  noResult: 'No result',
  readToAccept: 'Read to Accept',
  sending: 'Sending',
  scheduledCount: (n: number) => `${n} scheduled message(s)`,
  // Server messages (not in the spec's catalogue).
  textOrFileRequired: 'Type a message or attach a file',
  textTooLong: `A text message must be at most ${SMS_TEXT_MAX} characters`,
  tooManyFiles: `At most ${SMS_ATTACHMENTS_MAX} files can be sent in one message`,
  invalidPhone: 'Phone number must have 10 digits',
  optedOut: 'This phone number has opted out of texts from the practice (it replied STOP). It can receive texts again after it replies START.',
  notPracticeNumber: "This number is not one of the practice's phone numbers",
  noPracticeNumber: 'The practice has no phone number to text from',
  conversationNotFound: 'Conversation not found',
  participantNotFound: 'Participant not found',
  attachmentMissing: 'An attached file was not found; upload it again',
  carrierUnavailable: 'The text could not be handed to the carrier; it is kept as failed and can be sent again.',
  carrierRejected: 'The carrier refused the text; it is kept as failed.',
  scheduledEventNotFound: 'Scheduled message not found',
  scheduledWhenRequired: 'Choose when to send the message',
  scheduledWhenInvalid: 'The send time must be a date and time',
  scheduledWhenPast: 'The send time must be in the future',
  scheduledNotActive: 'This scheduled message has already been sent or cancelled',
  scheduledOnlySms: 'Only SMS notes can be scheduled',
  scheduledSendFailed: 'A scheduled text could not be sent',
  patientNotFound: 'Patient not found',
} as const;

/** Route keys and path builders of the messaging API (API Gateway route keys; the web prefixes its API base). */
export const MESSAGING_ROUTE_KEYS = [
  'GET /sms',
  'GET /v1/messaging/conversations',
  'POST /v1/messaging/conversations',
  'GET /v1/messaging/conversations/unread-count',
  'GET /v1/messaging/conversations/{id}',
  'GET /v1/messaging/conversations/{id}/messages',
  'POST /v1/messaging/conversations/{id}/messages',
  'PUT /v1/messaging/conversations/{id}/mark-as-read',
  'PUT /v1/messaging/conversations/{id}/mark-as-unread',
  'PUT /v1/messaging/conversations/{id}/archive',
  'PUT /v1/messaging/conversations/{id}/unarchive',
  'POST /v1/messaging/conversations/{id}/participants',
  'DELETE /v1/messaging/conversations/{id}/participants/{participantId}',
  'GET /v1/scheduled-events',
  'POST /v1/scheduled-events',
  'GET /v1/scheduled-events/{id}',
  'PUT /v1/scheduled-events/{id}',
  'DELETE /v1/scheduled-events/{id}',
] as const;
export type MessagingRouteKey = (typeof MESSAGING_ROUTE_KEYS)[number];

const seg = (s: string) => encodeURIComponent(s);
export const MESSAGING_PATHS = {
  smsHistory: '/sms',
  conversations: '/v1/messaging/conversations',
  unreadCount: '/v1/messaging/conversations/unread-count',
  conversation: (id: string) => `/v1/messaging/conversations/${seg(id)}`,
  messages: (id: string) => `/v1/messaging/conversations/${seg(id)}/messages`,
  markAsRead: (id: string) => `/v1/messaging/conversations/${seg(id)}/mark-as-read`,
  markAsUnread: (id: string) => `/v1/messaging/conversations/${seg(id)}/mark-as-unread`,
  archive: (id: string) => `/v1/messaging/conversations/${seg(id)}/archive`,
  unarchive: (id: string) => `/v1/messaging/conversations/${seg(id)}/unarchive`,
  participants: (id: string) => `/v1/messaging/conversations/${seg(id)}/participants`,
  participant: (id: string, participantId: string) => `/v1/messaging/conversations/${seg(id)}/participants/${seg(participantId)}`,
  scheduledEvents: '/v1/scheduled-events',
  scheduledEvent: (id: string) => `/v1/scheduled-events/${seg(id)}`,
} as const;

/** Only under `npm start` (the local sandbox carrier, on the local origin, not under /api). */
export const LOCAL_CARRIER_PATHS = { page: '/local/carrier', sms: '/local/carrier/sms' } as const;
export const LOCAL_CARRIER_LABEL = 'Local sandbox carrier';
