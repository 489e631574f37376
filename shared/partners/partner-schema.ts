import * as z from 'zod';
import { LIMITS } from '../limits.js';
import { PARTNER_MESSAGES } from './partner-constants.js';

/**
 * Partner apps (spec shell §2.6, §4 Partner/membership windows, §7.7 `emr/partner_apps`): a
 * practice's outside services that open inside a PARTNER note window, in a sandboxed frame from
 * their own origin, and write their result back through a signed delivery.
 */

export { PARTNER_CLOSE_DELAY_MS, PARTNER_MESSAGES } from './partner-constants.js';

export const PARTNER_ICONS = ['app', 'heart', 'flask', 'clipboard', 'cart', 'video'] as const;
export type PartnerIcon = (typeof PARTNER_ICONS)[number];

/** Note types a partner app writes: the PARTNER note its window opens. */
export const PARTNER_APP_NOTE_TYPES = ['PARTNER'] as const;

const ORIGIN = /^https:\/\/[a-z0-9.-]+(:\d{1,5})?$|^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;
/** An https origin, or a loopback http origin (the local demo partner of npm start). */
export const PartnerOrigin = z
  .string()
  .trim()
  .max(200)
  .regex(ORIGIN, 'origin must be an https origin (https://partner.example), without a path');

export const PARTNER_APP_ID = /^[a-z0-9][a-z0-9-]{1,62}$/;
export const PartnerAppId = z.string().trim().regex(PARTNER_APP_ID, 'partnerAppId must be 2-63 lowercase letters, digits or dashes');

export const PartnerAppInput = z.object({
  name: z.string().trim().min(1, 'Name is required').max(120),
  icon: z.enum(PARTNER_ICONS).default('app'),
  origin: PartnerOrigin,
  /** The page the window loads from the origin; it gets ?noteId=&patientId=&partnerAppId=. */
  path: z
    .string()
    .trim()
    .max(500)
    .regex(/^\/[^\s#?]*$/, 'path must start with / and hold no query or fragment')
    .default('/'),
  noteType: z.enum(PARTNER_APP_NOTE_TYPES).default('PARTNER'),
  active: z.boolean().default(true),
  /** Shown beside the name: the local demo partner of npm start says it is local. */
  local: z.boolean().optional(),
});
export type PartnerAppInput = z.infer<typeof PartnerAppInput>;

export const PartnerApp = PartnerAppInput.extend({
  partnerAppId: z.string(),
  updatedAt: z.string().optional(),
});
export type PartnerApp = z.infer<typeof PartnerApp>;

/** PUT /v1/practices/partner-apps: the practice's whole list; an app left out is removed. */
export const PartnerAppsUpdate = z.object({
  partnerApps: z
    .array(PartnerAppInput.extend({ partnerAppId: PartnerAppId }))
    .max(50)
    .refine((apps) => new Set(apps.map((a) => a.partnerAppId)).size === apps.length, 'Each partner app needs its own id'),
});
export type PartnerAppsUpdate = z.infer<typeof PartnerAppsUpdate>;

export const PartnerAppList = z.object({ partnerApps: z.array(PartnerApp), allowedOrigins: z.array(z.string()) });
export type PartnerAppList = z.infer<typeof PartnerAppList>;

/** The frame's address: the partner page with the note it writes to. */
export function partnerFrameUrl(app: Pick<PartnerApp, 'origin' | 'path' | 'partnerAppId'>, noteId: string, patientId: string | null): string {
  const url = new URL(app.path, app.origin);
  url.searchParams.set('partnerAppId', app.partnerAppId);
  url.searchParams.set('noteId', noteId);
  if (patientId) url.searchParams.set('patientId', patientId);
  return url.href;
}

/** A message the partner page posts to the window that frames it. */
export const PartnerWindowMessage = z.union([
  z.object({ type: z.literal('success'), message: z.string().max(LIMITS.shortText).optional() }),
  z.object({ type: z.literal('closeNote'), noteId: z.string().max(LIMITS.id).optional() }),
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

const deliveryId = z.string().trim().min(8).max(LIMITS.id).regex(/^[A-Za-z0-9._:-]+$/, 'deliveryId must be letters, digits and . _ : -');

/** POST /v1/partner-deliveries/{partnerId}/results */
export const PartnerResultBody = z.object({
  deliveryId,
  noteId: z.string().trim().min(1).max(80),
  result: z
    .object({
      title: z.string().trim().max(200).optional(),
      summary: z.string().trim().max(5_000),
      fields: z.array(z.object({ label: z.string().trim().min(1).max(120), value: z.string().trim().max(1_000) })).max(50).default([]),
    })
    .strict(),
});
export type PartnerResultBody = z.infer<typeof PartnerResultBody>;

/** Outside systems that write notes into a chart, and the note type each writes. */
export const EXTERNAL_NOTE_SOURCES = { veradigm: 'RX_VERADIGM', thea: 'ECONSULT_THEA' } as const;
export type ExternalNoteSource = keyof typeof EXTERNAL_NOTE_SOURCES;
export const EXTERNAL_NOTE_TYPES = ['RX_VERADIGM', 'ECONSULT_THEA'] as const;
export const isExternalNoteType = (t: string): boolean => (EXTERNAL_NOTE_TYPES as readonly string[]).includes(t);

const shortField = z.string().trim().max(500);
const dateField = z.string().trim().max(40);

/** Spec notes §3 External prescription. */
export const ExternalPrescription = z
  .object({
    id: z.string().trim().min(1).max(LIMITS.id),
    medicationName: z.string().trim().min(1).max(500),
    form: shortField.optional(),
    strength: shortField.optional(),
    routeOfAdministration: shortField.optional(),
    instructions: z.string().trim().max(2_000).optional(),
    quantityPrescribed: z.number().nonnegative().max(1_000_000).optional(),
    numberOfRefills: z.number().int().nonnegative().max(100).optional(),
    daysOfTreatment: z.number().int().nonnegative().max(3_650).optional(),
    datePrescribed: dateField.optional(),
    useByDate: dateField.optional(),
    ndcNumber: shortField.optional(),
    ddi: shortField.optional(),
    rxNorm: shortField.optional(),
    noSubstitutions: z.boolean().optional(),
    providerId: shortField.optional(),
    providerName: shortField.optional(),
    pharmacy: z.object({ name: shortField, address: z.object({ city: shortField.optional(), state: shortField.optional(), zipCode: shortField.optional() }).optional() }).optional(),
    createdBy: z.object({ name: shortField, id: shortField }).optional(),
  })
  .strict();
export type ExternalPrescription = z.infer<typeof ExternalPrescription>;

/** An eConsult's answer from the consulting specialist. */
export const EConsult = z
  .object({
    id: z.string().trim().min(1).max(LIMITS.id),
    specialty: shortField,
    question: z.string().trim().max(5_000),
    answer: z.string().trim().max(20_000).optional(),
    consultantName: shortField.optional(),
    requestedAt: dateField.optional(),
    answeredAt: dateField.optional(),
  })
  .strict();
export type EConsult = z.infer<typeof EConsult>;

/** The statuses an outside system may give its note (spec shell §4 colours apply). */
export const EXTERNAL_NOTE_STATUSES = ['SIGNED', 'SENT', 'DELIVERED', 'FULFILLED', 'FAILED'] as const;

/** POST /v1/partner-deliveries/{partnerId}/notes */
export const ExternalNoteBody = z.object({
  deliveryId,
  patientId: z.string().trim().min(1).max(64),
  status: z.enum(EXTERNAL_NOTE_STATUSES),
  eventTimestamp: z.string().max(40).refine((v) => !Number.isNaN(Date.parse(v)), 'Must be a date and time'),
  prescription: ExternalPrescription.optional(),
  econsult: EConsult.optional(),
});
export type ExternalNoteBody = z.infer<typeof ExternalNoteBody>;

export const DeliveryParams = z.object({ partnerId: PartnerAppId });
