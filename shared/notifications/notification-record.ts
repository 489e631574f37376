/*
 * The notification's own schema, apart from the API's inputs and queries: the notes and messaging
 * groups write notifications and read them back from the table, and load only this.
 */
import * as z from '../zod.js';
import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES } from './notification-constants.js';

export const NotificationTypeSchema = z.enum(NOTIFICATION_TYPES, { error: `notificationType must be one of ${NOTIFICATION_TYPES.join(', ')}` });
export const NotificationStatusSchema = z.enum(NOTIFICATION_STATUSES, {
  error: `notificationStatus must be one of ${NOTIFICATION_STATUSES.join(', ')}`,
});

const versionFields = {
  notificationId: z.string(),
  notificationVersion: z.number().check(z.int(), z.gte(1)),
  isLatestVersion: z.boolean(),
  sourceId: z.nullable(z.string()),
  relatedTo: z.nullable(z.string()),
  notificationType: NotificationTypeSchema,
  notificationStatus: NotificationStatusSchema,
  assigned: z.nullable(z.string()),
  previouslyAssigned: z.nullable(z.string()),
  author: z.nullable(z.string()),
  comments: z.nullable(z.unknown()),
  text: z.nullable(z.string()),
  urgent: z.boolean(),
  patientId: z.nullable(z.string()),
  createdAt: z.string(),
  dueOn: z.nullable(z.string()),
  lastUpdated: z.string(),
  lastUpdatedBy: z.nullable(z.string()),
  /** Type-specific data: PHONE_CALL {voicemailKey, from, to, timestamp}, SMS {from, to, timestamp, patients, files},
   * LAB_RESULTS/DRAFT {noteId, patientId}, FORM {noteId, patientId, intakeId},
   * FAX {messageId, text, faxNumber, faxCsid, faxCallerId, s3Path, faxId}. */
  data: z.nullable(z.record(z.string(), z.unknown())),
};

/** One version as its table item holds it, without the item's address (practiceId, sk). */
export const NotificationVersion = z.object(versionFields);

/** The stored and published notification: one version of it. */
export const Notification = z.object({ practiceId: z.string(), sk: z.string(), ...versionFields });
export type Notification = z.infer<typeof Notification>;
