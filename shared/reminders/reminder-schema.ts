import * as z from '../zod.js';

/** Not fixed by the spec: bounds so no request can store an unbounded value. */
export const REMINDER_TEXT_MAX = 1000;

export const REMINDER_MESSAGES = {
  textRequired: 'Reminder text is required',
  textTooLong: `Reminder text must be at most ${REMINDER_TEXT_MAX} characters`,
  dueAtRequired: 'Reminder time is required',
  dueAtInvalid: 'Reminder time must be a date and time',
  dueAtPast: 'Reminder time must be in the future',
  notFound: 'Reminder not found',
  completed: 'This reminder is completed and can no longer be changed',
} as const;

/** Spec shell §3 Reminder: reminderId, completionDate; due time and assignee as issue 5 describes. */
export const Reminder = z.object({
  reminderId: z.string(),
  text: z.string(),
  /** ISO date-time the reminder fires. */
  dueAt: z.string(),
  assigned: z.string(),
  patientId: z.nullable(z.string()),
  completionDate: z.nullable(z.string()),
  /** When the reminder's notification was created (null until it fires). */
  firedAt: z.nullable(z.string()),
  createdAt: z.string(),
  createdBy: z.string(),
  lastUpdated: z.string(),
});
export type Reminder = z.infer<typeof Reminder>;

const text = z
  .string({ error: REMINDER_MESSAGES.textRequired })
  .check(z.trim(), z.minLength(1, REMINDER_MESSAGES.textRequired), z.maxLength(REMINDER_TEXT_MAX, REMINDER_MESSAGES.textTooLong));
const dueAt = z.iso.datetime({ offset: true, error: (iss) => (iss.input === undefined ? REMINDER_MESSAGES.dueAtRequired : REMINDER_MESSAGES.dueAtInvalid) });
const id = z.string().check(z.trim(), z.minLength(1), z.maxLength(120));

/** POST /v1/reminders. `assigned` defaults to the caller. */
export const ReminderCreateInput = z.object({ text, dueAt, assigned: z.optional(id), patientId: z.optional(z.nullable(id)) });
export type ReminderCreateInput = z.infer<typeof ReminderCreateInput>;

/** PUT /v1/reminders/{reminderId}: `completed: true` (or a completionDate) completes it and cancels its schedule. */
export const ReminderUpdateInput = z.object({
  text: z.optional(text),
  dueAt: z.optional(dueAt),
  assigned: z.optional(id),
  patientId: z.optional(z.nullable(id)),
  completed: z.optional(z.boolean()),
  completionDate: z.optional(z.iso.datetime({ offset: true })),
});
export type ReminderUpdateInput = z.infer<typeof ReminderUpdateInput>;

/** GET /v1/reminders: the caller's reminders by due time; open=true keeps those without completionDate. */
export const ReminderListQuery = z.object({
  open: z.optional(
    z.pipe(
      z.enum(['true', 'false']),
      z.transform((v) => v === 'true'),
    ),
  ),
});
export const ReminderList = z.object({ reminders: z.array(Reminder) });
export type ReminderList = z.infer<typeof ReminderList>;
export const ReminderIdParams = z.object({ reminderId: id });

export { isDueOn } from './reminder-rules.js';
