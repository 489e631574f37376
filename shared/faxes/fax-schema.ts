import * as z from '../zod.js';
import { ContactNumber } from '../contacts/contact-schema.js';

/**
 * Faxes (spec shell §2.11, §7.4; notes §7): one record per fax sent or received, beside the FAX
 * note it left in the patient's chart. Statuses follow the fax vendor's (Sinch Fax API v3).
 */
export const FAX_STATUSES = ['QUEUED', 'IN_PROGRESS', 'COMPLETED', 'FAILURE'] as const;
export type FaxStatus = (typeof FAX_STATUSES)[number];
export const FAX_DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const;
export type FaxDirection = (typeof FAX_DIRECTIONS)[number];

/** The order a status moves in: a callback never moves a fax back (a late QUEUED after COMPLETED changes nothing). */
export const FAX_STATUS_RANK: Record<FaxStatus, number> = { QUEUED: 0, IN_PROGRESS: 1, COMPLETED: 2, FAILURE: 2 };

/** Spec §2.11: the fax list's default page. */
export const FAX_LIST_DEFAULT_LIMIT = 100;
export const FAX_LIST_MAX_LIMIT = 500;
/** A filter the index cannot key (direction, status, text) matches at most this many faxes of its range per request; `nextToken` looks on. */
export const FAX_SEARCH_SCAN = 150;
export const FAX_COVER_MAX = 2000;
export const FAX_ATTACHMENTS_MAX = 10;
/** The vendor id the fax adapter's deliveries are signed as (partner secret JSON key). */
export const FAX_PARTNER_ID = 'sinch-fax';

export const FAX_MESSAGES = {
  notSignable: 'Only a signed or addended note can be faxed.',
  recipientRequired: 'Enter a fax number',
  notFound: 'Fax not found',
  notSetUp: 'Faxing is not set up for this practice.',
  attachmentType: 'Only PDF, PNG and JPEG files can be faxed.',
  attachmentMissing: 'An attached file was not found',
  inboundResend: 'Only a fax the practice sent can be sent again.',
  sent: 'Fax queued',
  sendError: 'The fax could not be sent.',
} as const;

export const Fax = z.object({
  ident: z.string(),
  faxId: z.nullable(z.string()),
  direction: z.enum(FAX_DIRECTIONS),
  status: z.enum(FAX_STATUSES),
  sender: z.string(),
  recipient: z.string(),
  recipientName: z.nullable(z.string()),
  patientId: z.nullable(z.string()),
  patientName: z.nullable(z.string()),
  /** The note that was faxed (outbound), or null for the facesheet. */
  sourceNoteId: z.nullable(z.string()),
  /** The FAX note this fax left in the chart. */
  faxNoteId: z.nullable(z.string()),
  fileKey: z.string(),
  pages: z.nullable(z.number()),
  coverText: z.nullable(z.string()),
  errorMessage: z.nullable(z.string()),
  read: z.boolean(),
  attempts: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Fax = z.infer<typeof Fax>;

const dateOnly = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD'));
const optionalText = (max: number) => z.optional(z.string().check(z.trim(), z.maxLength(max)));

export const FaxListQuery = z.object({
  offset: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(FAX_LIST_MAX_LIMIT)), FAX_LIST_DEFAULT_LIMIT),
  direction: z.optional(z.enum(FAX_DIRECTIONS)),
  order: z._default(z.enum(['asc', 'desc']), 'desc'),
  fromDate: z.optional(dateOnly),
  toDate: z.optional(dateOnly),
  status: z.optional(z.enum(FAX_STATUSES)),
  query: optionalText(200),
  expand: optionalText(50),
  sender: optionalText(40),
  recipient: optionalText(40),
  /** A filtered list's next stretch: the position of the last fax the previous one read. */
  nextToken: z.optional(z.string().check(z.maxLength(200, 'Invalid nextToken'), z.regex(/^[A-Za-z0-9_-]*$/, 'Invalid nextToken'))),
});
export type FaxListQuery = z.infer<typeof FaxListQuery>;

export const FaxIdentParams = z.object({ ident: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'Unknown fax')) });

/** POST /v1/faxes: a SIGNED or ADDENDED note (noteId) or the patient's facesheet (no noteId) to one fax number. */
export const SendFaxBody = z.object({
  patientId: z.string().check(z.minLength(1), z.maxLength(64)),
  noteId: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(64)))),
  to: z.pipe(ContactNumber, z.string('Enter a fax number')),
  from: z.optional(z.string().check(z.maxLength(20))),
  recipientName: optionalText(120),
  coverText: optionalText(FAX_COVER_MAX),
  /** Drive files sent after the letter (spec §2.1 /messages/fax/new?fileKeys=): PDFs page by page, pictures one a page. */
  fileKeys: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(600))).check(z.maxLength(FAX_ATTACHMENTS_MAX))),
});
export type SendFaxBody = z.infer<typeof SendFaxBody>;

/** PUT /v1/faxes/{ident}: what a user changes on a fax (read mark, the patient it belongs to). */
export const UpdateFaxBody = z.object({
  read: z.optional(z.boolean()),
  patientId: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(64)))),
});
export type UpdateFaxBody = z.infer<typeof UpdateFaxBody>;

/** A filtered list's `total` counts the matches of the stretch it read; `nextToken` is set while the range goes on. */
export const FaxList = z.object({
  faxes: z.array(Fax),
  total: z.number(),
  offset: z.number(),
  limit: z.number(),
  nextToken: z.optional(z.nullable(z.string())),
});
export type FaxList = z.infer<typeof FaxList>;
