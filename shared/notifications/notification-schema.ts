import * as z from '../zod.js';
import { jsonSize, OPEN_DATA_MAX, openDataMessage } from '../limits.js';

export * from './notification-constants.js';
export * from './notification-record.js';
import { NOTIFICATION_LIST_MAX, NOTIFICATION_STATUSES, NOTIFICATION_TEXT_MAX, NOTIFICATION_TYPES } from './notification-constants.js';
import { NotificationStatusSchema, NotificationTypeSchema, Notification } from './notification-record.js';

const id = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
const nullableText = (max: number) => z.nullable(z.string().check(z.maxLength(max)));

/** Fields a caller may set; identity, versions and timestamps are the server's. */
const notificationFields = {
  sourceId: z.optional(z.nullable(id)),
  relatedTo: z.optional(z.nullable(id)),
  notificationStatus: z.optional(NotificationStatusSchema),
  assigned: z.optional(z.nullable(id)),
  previouslyAssigned: z.optional(z.nullable(id)),
  author: z.optional(z.nullable(id)),
  comments: z.optional(z.unknown().check(z.refine((v) => jsonSize(v) <= OPEN_DATA_MAX, openDataMessage('comments', OPEN_DATA_MAX)))),
  text: z.optional(nullableText(NOTIFICATION_TEXT_MAX)),
  urgent: z.optional(z.boolean()),
  patientId: z.optional(z.nullable(id)),
  dueOn: z.optional(z.nullable(z.string().check(z.maxLength(40)))),
  data: z.optional(
    z.nullable(
      z.record(z.string().check(z.maxLength(100)), z.unknown()).check(z.refine((v) => jsonSize(v) <= OPEN_DATA_MAX, openDataMessage('data', OPEN_DATA_MAX))),
    ),
  ),
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
  notificationVersion: z.optional(z.number().check(z.int(), z.gte(1))),
});
export type NotificationUpdateInput = z.infer<typeof NotificationUpdateInput>;

const commaList = <T extends string>(values: readonly [T, ...T[]], label: string) =>
  z.pipe(
    z.pipe(
      z.string().check(z.maxLength(500)),
      z.transform((s) => s.split(/[\s,]+/).filter(Boolean)),
    ),
    z.array(z.enum(values, { error: `${label} must be among ${values.join(', ')}` })).check(z.minLength(1)),
  );

/**
 * GET /v1/notifications filters (spec shell §7.2): notificationType + notificationStatus (each may be
 * comma-joined); notificationId; sourceId + notificationType; notificationType=DRAFT + relatedTo;
 * since=<iso> answers the latest versions changed since then (catch-up after a reconnect).
 */
export const NotificationListQuery = z.object({
  notificationType: z.optional(commaList(NOTIFICATION_TYPES, 'notificationType')),
  notificationStatus: z.optional(commaList(NOTIFICATION_STATUSES, 'notificationStatus')),
  notificationId: z.optional(id),
  sourceId: z.optional(id),
  relatedTo: z.optional(id),
  assigned: z.optional(id),
  since: z.optional(z.iso.datetime({ offset: true, error: 'since must be an ISO date-time' })),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(NOTIFICATION_LIST_MAX))),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

/** `complete` answers a catch-up (since=): false when more changed than one answer holds, and the lists are to be reloaded. */
export const NotificationList = z.object({ notifications: z.array(Notification), complete: z.optional(z.boolean()) });
export type NotificationList = z.infer<typeof NotificationList>;

/** Conversation calls: {from, to} are the two phone numbers of an SMS conversation. */
export const ConversationInput = z.object({
  from: z.string().check(z.trim(), z.minLength(1, 'from is required'), z.maxLength(40)),
  to: z.string().check(z.trim(), z.minLength(1, 'to is required'), z.maxLength(40)),
});
export type ConversationInput = z.infer<typeof ConversationInput>;
export const ConversationUpdateResult = z.object({ updated: z.number().check(z.int()) });

/** GET /v1/notifications/unread-count: UNREAD + UPDATED latest versions. */
export const UnreadCount = z.object({
  /** All unread notifications except tasks (the communication inbox). */
  count: z.number().check(z.int()),
  byType: z.record(NotificationTypeSchema, z.number().check(z.int())),
  /** Unread notifications of any type assigned to the caller. */
  assignedToMe: z.number().check(z.int()),
});
export type UnreadCount = z.infer<typeof UnreadCount>;

export const NotificationIdParams = z.object({ id: id });
