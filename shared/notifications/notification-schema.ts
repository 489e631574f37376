import * as z from 'zod';
import { jsonSize, OPEN_DATA_MAX, openDataMessage } from '../limits.js';

export * from './notification-constants.js';
import {
  NOTIFICATION_LIST_MAX,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TEXT_MAX,
  NOTIFICATION_TYPES,
} from './notification-constants.js';

const id = z.string().trim().min(1).max(200);
const nullableText = (max: number) => z.string().max(max).nullable();

export const NotificationTypeSchema = z.enum(NOTIFICATION_TYPES, { error: `notificationType must be one of ${NOTIFICATION_TYPES.join(', ')}` });
export const NotificationStatusSchema = z.enum(NOTIFICATION_STATUSES, {
  error: `notificationStatus must be one of ${NOTIFICATION_STATUSES.join(', ')}`,
});

/** The stored and published notification: one version of it. */
export const Notification = z.object({
  practiceId: z.string(),
  sk: z.string(),
  notificationId: z.string(),
  notificationVersion: z.number().int().min(1),
  isLatestVersion: z.boolean(),
  sourceId: z.string().nullable(),
  relatedTo: z.string().nullable(),
  notificationType: NotificationTypeSchema,
  notificationStatus: NotificationStatusSchema,
  assigned: z.string().nullable(),
  previouslyAssigned: z.string().nullable(),
  author: z.string().nullable(),
  comments: z.unknown().nullable(),
  text: z.string().nullable(),
  urgent: z.boolean(),
  patientId: z.string().nullable(),
  createdAt: z.string(),
  dueOn: z.string().nullable(),
  lastUpdated: z.string(),
  lastUpdatedBy: z.string().nullable(),
  /** Type-specific data: PHONE_CALL {voicemailKey, from, to, timestamp}, SMS {from, to, timestamp, patients, files},
   * LAB_RESULTS/DRAFT {noteId, patientId}, FORM {noteId, patientId, intakeId},
   * FAX {messageId, text, faxNumber, faxCsid, faxCallerId, s3Path, faxId}. */
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type Notification = z.infer<typeof Notification>;

/** Fields a caller may set; identity, versions and timestamps are the server's. */
const notificationFields = {
  sourceId: id.nullable().optional(),
  relatedTo: id.nullable().optional(),
  notificationStatus: NotificationStatusSchema.optional(),
  assigned: id.nullable().optional(),
  previouslyAssigned: id.nullable().optional(),
  author: id.nullable().optional(),
  comments: z.unknown().refine((v) => jsonSize(v) <= OPEN_DATA_MAX, openDataMessage('comments', OPEN_DATA_MAX)).optional(),
  text: nullableText(NOTIFICATION_TEXT_MAX).optional(),
  urgent: z.boolean().optional(),
  patientId: id.nullable().optional(),
  dueOn: z.string().max(40).nullable().optional(),
  data: z
    .record(z.string().max(100), z.unknown())
    .refine((v) => jsonSize(v) <= OPEN_DATA_MAX, openDataMessage('data', OPEN_DATA_MAX))
    .nullable()
    .optional(),
};

/** POST /v1/notifications: a notification plus its notificationType (status defaults to UNREAD). */
export const NotificationCreateInput = z.object({ notificationType: NotificationTypeSchema, ...notificationFields });
export type NotificationCreateInput = z.infer<typeof NotificationCreateInput>;

/**
 * PUT /v1/notifications/{id}: the changed fields. `notificationVersion`, when sent, is the version
 * the caller last saw; the update is refused with 409 if the notification has moved on since.
 */
export const NotificationUpdateInput = z.object({
  ...notificationFields,
  notificationVersion: z.number().int().min(1).optional(),
});
export type NotificationUpdateInput = z.infer<typeof NotificationUpdateInput>;

const commaList = <T extends string>(values: readonly [T, ...T[]], label: string) =>
  z
    .string()
    .max(500)
    .transform((s) => s.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(z.enum(values, { error: `${label} must be among ${values.join(', ')}` })).min(1));

/**
 * GET /v1/notifications filters (spec shell §7.2): notificationType + notificationStatus (each may be
 * comma-joined); notificationId; sourceId + notificationType; notificationType=DRAFT + relatedTo;
 * since=<iso> answers the latest versions changed since then (catch-up after a reconnect).
 */
export const NotificationListQuery = z.object({
  notificationType: commaList(NOTIFICATION_TYPES, 'notificationType').optional(),
  notificationStatus: commaList(NOTIFICATION_STATUSES, 'notificationStatus').optional(),
  notificationId: id.optional(),
  sourceId: id.optional(),
  relatedTo: id.optional(),
  assigned: id.optional(),
  since: z.iso.datetime({ offset: true, error: 'since must be an ISO date-time' }).optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_LIST_MAX).optional(),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

export const NotificationList = z.object({ notifications: z.array(Notification) });
export type NotificationList = z.infer<typeof NotificationList>;

/** Conversation calls: {from, to} are the two phone numbers of an SMS conversation. */
export const ConversationInput = z.object({ from: z.string().trim().min(1, 'from is required').max(40), to: z.string().trim().min(1, 'to is required').max(40) });
export type ConversationInput = z.infer<typeof ConversationInput>;
export const ConversationUpdateResult = z.object({ updated: z.number().int() });

/** GET /v1/notifications/unread-count: UNREAD + UPDATED latest versions. */
export const UnreadCount = z.object({
  /** All unread notifications except tasks (the communication inbox). */
  count: z.number().int(),
  byType: z.record(NotificationTypeSchema, z.number().int()),
  /** Unread notifications of any type assigned to the caller. */
  assignedToMe: z.number().int(),
});
export type UnreadCount = z.infer<typeof UnreadCount>;

export const NotificationIdParams = z.object({ id: id });
