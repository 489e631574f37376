import * as z from '../zod.js';
import { ContactNumber } from '../contacts/contact-schema.js';

/**
 * Phone calls (spec shell §2.11, §7.4; notes §7): one record per call placed from Tidewell
 * (click-to-call) or received on a practice number, with its voicemail when the caller left one.
 * `status` is the user's (READ, UNREAD, COMPLETED); `callStatus` is the telephony vendor's
 * (Twilio Programmable Voice call status values).
 */
export const CALL_STATUSES = ['READ', 'UNREAD', 'COMPLETED'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const VENDOR_CALL_STATUSES = ['queued', 'initiated', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled'] as const;
export type VendorCallStatus = (typeof VENDOR_CALL_STATUSES)[number];
/** Final statuses of a call nobody answered: an inbound one is a missed call. */
export const UNANSWERED_CALL_STATUSES: readonly VendorCallStatus[] = ['busy', 'failed', 'no-answer', 'canceled'];
export const CALL_DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const;
export type CallDirection = (typeof CALL_DIRECTIONS)[number];

export const CALL_LIST_DEFAULT_LIMIT = 100;
export const CALL_LIST_MAX_LIMIT = 500;
/** A text search names and matches at most this many calls of its range per request; `nextToken` looks on. */
export const CALL_SEARCH_SCAN = 60;
/** The vendor id the telephony callbacks are verified as (partner secret JSON key: the account's auth token). */
export const TELEPHONY_PARTNER_ID = 'twilio-voice';

export const CALL_MESSAGES = {
  /** Spec shell §5, §8: placing a call needs the user's own phone, which rings first. */
  missingUserPhone: 'User missing phone number',
  recipientRequired: 'Enter a phone number to call',
  notFound: 'Call not found',
  notSetUp: 'Calling is not set up for this practice.',
  unknownNumber: 'Calls can only be placed from one of the practice numbers.',
  placed: 'Calling your phone now',
  placeError: 'The call could not be placed.',
  vendorRefused: 'The phone service refused the call',
  deleted: 'Call deleted',
  userNotFound: 'User not found',
} as const;

export const PhoneCall = z.object({
  ident: z.string(),
  /** The vendor's call id (Twilio CallSid), once it has one. */
  callSid: z.nullable(z.string()),
  direction: z.enum(CALL_DIRECTIONS),
  status: z.enum(CALL_STATUSES),
  callStatus: z.string(),
  /** Who called and who was called, as +1 and ten digits where they are US numbers. */
  caller: z.string(),
  recipient: z.string(),
  /** A contact's or patient's name for the number, resolved when the list is read. */
  callerName: z.nullable(z.string()),
  recipientName: z.nullable(z.string()),
  patientId: z.nullable(z.string()),
  patientName: z.nullable(z.string()),
  /** The user the call is assigned to (click-to-call: its caller). */
  assigned: z.nullable(z.string()),
  /** The user whose phone rang first on a click-to-call. */
  placedBy: z.nullable(z.string()),
  voicemailKey: z.nullable(z.string()),
  voicemailSeconds: z.nullable(z.number()),
  durationSeconds: z.nullable(z.number()),
  noteId: z.nullable(z.string()),
  /** An inbound call's outcome once announced: true for a missed call, false once it has a voicemail. */
  missed: z.optional(z.boolean()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PhoneCall = z.infer<typeof PhoneCall>;

const dateOnly = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD'));
const optionalText = (max: number) => z.optional(z.string().check(z.trim(), z.maxLength(max)));

/** GET /v1/phone-calls: spec §7.4's filters. */
export const CallListQuery = z.object({
  offset: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(CALL_LIST_MAX_LIMIT)), CALL_LIST_DEFAULT_LIMIT),
  order: z._default(z.enum(['asc', 'desc']), 'desc'),
  fromDate: z.optional(dateOnly),
  toDate: z.optional(dateOnly),
  query: optionalText(200),
  caller: optionalText(40),
  recipient: optionalText(40),
  /** A search's next stretch: the position of the last call the previous one read. */
  nextToken: z.optional(z.string().check(z.maxLength(200, 'Invalid nextToken'), z.regex(/^[A-Za-z0-9_-]*$/, 'Invalid nextToken'))),
});
export type CallListQuery = z.infer<typeof CallListQuery>;

/** A search's `total` counts the matches of the stretch it read; `nextToken` is set while the range goes on. */
export const CallList = z.object({
  calls: z.array(PhoneCall),
  total: z.number(),
  offset: z.number(),
  limit: z.number(),
  nextToken: z.optional(z.nullable(z.string())),
});
export type CallList = z.infer<typeof CallList>;

const ident = z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'Unknown call'));
export const CallIdentParams = z.object({ ident });
export const CallIdParams = z.object({ id: ident });
export const CallAssignParams = z.object({ id: ident, userId: z.string().check(z.regex(/^[A-Za-z0-9_:@.-]{1,128}$/, 'Unknown user')) });

/** PUT /v1/phone-calls/{ident}: the call as the client holds it; what a user may change is its status, assignee and patient. */
export const UpdateCallBody = z.object({
  status: z.optional(z.enum(CALL_STATUSES)),
  assigned: z.optional(z.nullable(z.string().check(z.maxLength(128)))),
  patientId: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(64)))),
});
export type UpdateCallBody = z.infer<typeof UpdateCallBody>;

/** POST /v1/notes/call (spec §7.4): the vendor rings `dialFrom` (the user's phone), then connects it to `to`, showing `from`. */
export const ClickToCallBody = z.object({
  to: z.pipe(ContactNumber, z.string(CALL_MESSAGES.recipientRequired)),
  from: z.optional(z.nullable(z.string().check(z.maxLength(20)))),
  patientId: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(64)))),
  patientName: optionalText(200),
  dialFrom: z.optional(z.nullable(ContactNumber)),
});
export type ClickToCallBody = z.input<typeof ClickToCallBody>;

export const CallCount = z.object({ count: z.number() });
export const CallNumbers = z.object({ phoneNumbers: z.array(z.string()), local: z.boolean() });
export type CallNumbers = z.infer<typeof CallNumbers>;
