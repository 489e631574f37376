import * as z from '../zod.js';
import { LIMITS } from '../limits.js';
import { MEMBERSHIP_ACTIONS, PARTNER_MESSAGES, type MembershipAction } from './partner-constants.js';

/**
 * Partner apps (spec shell §2.6, §4 Partner/membership windows, §7.7 `emr/partner_apps`): a
 * practice's outside services that open inside a PARTNER note window, in a sandboxed frame from
 * their own origin, and write their result back through a signed delivery.
 */

export {
  EXTERNAL_NOTE_TYPES,
  isExternalNoteType,
  MEMBERSHIP_ACTION_KEYS,
  MEMBERSHIP_ACTIONS,
  PARTNER_CLOSE_DELAY_MS,
  PARTNER_MESSAGES,
  type MembershipAction,
} from './partner-constants.js';

export const PARTNER_ICONS = ['app', 'heart', 'flask', 'clipboard', 'cart', 'video'] as const;
export type PartnerIcon = (typeof PARTNER_ICONS)[number];

/** Note types a partner app writes: the PARTNER note its window opens. */
export const PARTNER_APP_NOTE_TYPES = ['PARTNER'] as const;

const ORIGIN = /^https:\/\/[a-z0-9.-]+(:\d{1,5})?$|^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;
/** An https origin, or a loopback http origin (the local demo partner of npm start). */
export const PartnerOrigin = z
  .string()
  .check(z.trim(), z.maxLength(200), z.regex(ORIGIN, 'origin must be an https origin (https://partner.example), without a path'));

export const PARTNER_APP_ID = /^[a-z0-9][a-z0-9-]{1,62}$/;
export const PartnerAppId = z.string().check(z.trim(), z.regex(PARTNER_APP_ID, 'partnerAppId must be 2-63 lowercase letters, digits or dashes'));

export const PartnerAppInput = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Name is required'), z.maxLength(120)),
  icon: z._default(z.enum(PARTNER_ICONS), 'app'),
  origin: PartnerOrigin,
  /** The page the window loads from the origin; it gets ?noteId=&patientId=&partnerAppId=. */
  path: z._default(z.string().check(z.trim(), z.maxLength(500), z.regex(/^\/[^\s#?]*$/, 'path must start with / and hold no query or fragment')), '/'),
  noteType: z._default(z.enum(PARTNER_APP_NOTE_TYPES), 'PARTNER'),
  active: z._default(z.boolean(), true),
  /** Shown beside the name: the local demo partner of npm start says it is local. */
  local: z.optional(z.boolean()),
});
export type PartnerAppInput = z.infer<typeof PartnerAppInput>;

export const PartnerApp = z.extend(PartnerAppInput, {
  partnerAppId: z.string(),
  updatedAt: z.optional(z.string()),
});
export type PartnerApp = z.infer<typeof PartnerApp>;

/** PUT /v1/practices/partner-apps: the practice's whole list; an app left out is removed. */
export const PartnerAppsUpdate = z.object({
  partnerApps: z.array(z.extend(PartnerAppInput, { partnerAppId: PartnerAppId })).check(
    z.maxLength(50),
    z.refine((apps) => new Set(apps.map((a) => a.partnerAppId)).size === apps.length, 'Each partner app needs its own id'),
  ),
});
export type PartnerAppsUpdate = z.infer<typeof PartnerAppsUpdate>;

export const PartnerAppList = z.object({
  partnerApps: z.array(PartnerApp),
  allowedOrigins: z.array(z.string()),
  /** The origin the membership windows frame (practices/<slug>.json membershipOrigin); null when the practice has none. */
  membership: z.optional(z.nullable(z.object({ origin: z.string(), local: z.boolean() }))),
});
export type PartnerAppList = z.infer<typeof PartnerAppList>;

/** The frame's address: the partner page with the note it writes to. */
export function partnerFrameUrl(app: Pick<PartnerApp, 'origin' | 'path' | 'partnerAppId'>, noteId: string, patientId: string | null): string {
  const url = new URL(app.path, app.origin);
  url.searchParams.set('partnerAppId', app.partnerAppId);
  url.searchParams.set('noteId', noteId);
  if (patientId) url.searchParams.set('patientId', patientId);
  return url.href;
}

/** A membership window's frame: the core product's page for the action and patient. */
export function membershipFrameUrl(origin: string, action: MembershipAction, patientId: string): string {
  const url = new URL(MEMBERSHIP_ACTIONS[action].path, origin);
  url.searchParams.set('patientId', patientId);
  return url.href;
}

/** A message the partner page posts to the window that frames it. */
export const PartnerWindowMessage = z.union([
  z.object({ type: z.literal('success'), message: z.optional(z.string().check(z.maxLength(LIMITS.shortText))) }),
  z.object({ type: z.literal('closeNote'), noteId: z.optional(z.string().check(z.maxLength(LIMITS.id))) }),
]);
export type PartnerWindowMessage = z.infer<typeof PartnerWindowMessage>;

/** What the window does with a message event: only the framed partner's own origin is heard. */
export function partnerMessageAction(
  event: { origin: string; data: unknown },
  partnerOrigin: string,
): { kind: 'ignored'; reason: 'origin' | 'shape' } | { kind: 'success'; message: string } | { kind: 'close' } {
  if (event.origin !== partnerOrigin) return { kind: 'ignored', reason: 'origin' };
  const parsed = PartnerWindowMessage.safeParse(event.data);
  if (!parsed.success) return { kind: 'ignored', reason: 'shape' };
  if (parsed.data.type === 'success') return { kind: 'success', message: PARTNER_MESSAGES.success };
  return { kind: 'close' };
}

// --- Signed deliveries (partner results and external notes) -------------------------------------

/**
 * Headers of a signed delivery. The signature is HMAC-SHA256 with the partner's secret over
 * `<timestamp>.<raw body>`, hex, written `v1=<hex>` (README "Partner apps").
 */
export const DELIVERY_HEADERS = { timestamp: 'x-tidewell-timestamp', signature: 'x-tidewell-signature' } as const;
/** A delivery older or newer than this is refused, so a captured request cannot be sent later. */
export const DELIVERY_MAX_SKEW_SECONDS = 300;

const deliveryId = z
  .string()
  .check(z.trim(), z.minLength(8), z.maxLength(LIMITS.id), z.regex(/^[A-Za-z0-9._:-]+$/, 'deliveryId must be letters, digits and . _ : -'));

/** POST /v1/partner-deliveries/{partnerId}/results */
export const PartnerResultBody = z.object({
  deliveryId,
  noteId: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  result: z.strictObject(
    z.object({
      title: z.optional(z.string().check(z.trim(), z.maxLength(200))),
      summary: z.string().check(z.trim(), z.maxLength(5_000)),
      fields: z._default(
        z
          .array(z.object({ label: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)), value: z.string().check(z.trim(), z.maxLength(1_000)) }))
          .check(z.maxLength(50)),
        [],
      ),
    }).shape,
  ),
});
export type PartnerResultBody = z.infer<typeof PartnerResultBody>;

/** Outside systems that write notes into a chart, and the note type each writes. */
export const EXTERNAL_NOTE_SOURCES = { veradigm: 'RX_VERADIGM', thea: 'ECONSULT_THEA' } as const;
export type ExternalNoteSource = keyof typeof EXTERNAL_NOTE_SOURCES;

const shortField = z.string().check(z.trim(), z.maxLength(500));
const dateField = z.string().check(z.trim(), z.maxLength(40));

/** Spec notes §3 External prescription. */
export const ExternalPrescription = z.strictObject(
  z.object({
    id: z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id)),
    medicationName: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
    form: z.optional(shortField),
    strength: z.optional(shortField),
    routeOfAdministration: z.optional(shortField),
    instructions: z.optional(z.string().check(z.trim(), z.maxLength(2_000))),
    quantityPrescribed: z.optional(z.number().check(z.nonnegative(), z.lte(1_000_000))),
    numberOfRefills: z.optional(z.number().check(z.int(), z.nonnegative(), z.lte(100))),
    daysOfTreatment: z.optional(z.number().check(z.int(), z.nonnegative(), z.lte(3_650))),
    datePrescribed: z.optional(dateField),
    useByDate: z.optional(dateField),
    ndcNumber: z.optional(shortField),
    ddi: z.optional(shortField),
    rxNorm: z.optional(shortField),
    noSubstitutions: z.optional(z.boolean()),
    providerId: z.optional(shortField),
    providerName: z.optional(shortField),
    pharmacy: z.optional(
      z.object({
        name: shortField,
        address: z.optional(z.object({ city: z.optional(shortField), state: z.optional(shortField), zipCode: z.optional(shortField) })),
      }),
    ),
    createdBy: z.optional(z.object({ name: shortField, id: shortField })),
  }).shape,
);
export type ExternalPrescription = z.infer<typeof ExternalPrescription>;

/** An eConsult's answer from the consulting specialist. */
export const EConsult = z.strictObject(
  z.object({
    id: z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id)),
    specialty: shortField,
    question: z.string().check(z.trim(), z.maxLength(5_000)),
    answer: z.optional(z.string().check(z.trim(), z.maxLength(20_000))),
    consultantName: z.optional(shortField),
    requestedAt: z.optional(dateField),
    answeredAt: z.optional(dateField),
  }).shape,
);
export type EConsult = z.infer<typeof EConsult>;

/** The statuses an outside system may give its note (spec shell §4 colours apply). */
export const EXTERNAL_NOTE_STATUSES = ['SIGNED', 'SENT', 'DELIVERED', 'FULFILLED', 'FAILED'] as const;

/** POST /v1/partner-deliveries/{partnerId}/notes */
export const ExternalNoteBody = z.object({
  deliveryId,
  patientId: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
  status: z.enum(EXTERNAL_NOTE_STATUSES),
  eventTimestamp: z.string().check(
    z.maxLength(40),
    z.refine((v) => !Number.isNaN(Date.parse(v)), 'Must be a date and time'),
  ),
  prescription: z.optional(ExternalPrescription),
  econsult: z.optional(EConsult),
});
export type ExternalNoteBody = z.infer<typeof ExternalNoteBody>;

export const DeliveryParams = z.object({ partnerId: PartnerAppId });
