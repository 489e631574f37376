import * as z from '../zod.js';
import { MESSAGING_MESSAGES, SMS_TEXT_MAX } from '../messaging/messaging-constants.js';
import { PhoneNumber } from '../messaging/messaging-schema.js';
import { TaskCreateInput } from '../tasks/task-schema.js';
import { LAB_REVIEW_COMMENT_MAX, LAB_REVIEW_MESSAGES, LAB_REVIEW_STATUSES, type LabReview } from './lab-review-format.js';

export * from './lab-review-format.js';

/** Request schemas of Results to review (functions/notes/lab-reviews.ts). */
const noteId = z.string().check(z.trim(), z.minLength(1), z.maxLength(80));
export const LabReviewParams = z.object({ noteId });

/** POST /v1/notes/labs/reviews/{noteId}: signs the result off. */
export const LabReviewBody = z
  .object({
    /** The version the reviewer saw: results that arrived since are refused (409) so none is signed off unseen. */
    version: z.number({ error: 'version is required' }).check(z.int(), z.nonnegative()),
    comment: z.optional(z.string().check(z.trim(), z.maxLength(LAB_REVIEW_COMMENT_MAX, LAB_REVIEW_MESSAGES.commentTooLong))),
    /** A follow-up task made earlier (POST /v1/tasks), linked here. */
    followUpTaskId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(120))),
    /** A follow-up task made in the same step: its text, assignee (default the reviewer) and due date. */
    followUpTask: z.optional(z.pick(TaskCreateInput, { text: true, assigned: true, dueOn: true, urgent: true })),
    /**
     * A text to the patient sent in the same step, through the messaging send path: to the patient's
     * primary phone unless `to` is given, from the practice's number unless `from` is.
     */
    followUpMessage: z.optional(
      z.object({
        text: z
          .string({ error: LAB_REVIEW_MESSAGES.messageRequired })
          .check(z.trim(), z.minLength(1, LAB_REVIEW_MESSAGES.messageRequired), z.maxLength(SMS_TEXT_MAX, MESSAGING_MESSAGES.textTooLong)),
        to: z.optional(PhoneNumber),
        from: z.optional(PhoneNumber),
      }),
    ),
  })
  .check(z.refine((b) => !(b.followUpTask && b.followUpTaskId), { message: LAB_REVIEW_MESSAGES.oneTask, path: ['followUpTask'] }));
export type LabReviewBody = z.infer<typeof LabReviewBody>;

export const LabReviewListQuery = z.object({
  status: z.optional(z.enum(LAB_REVIEW_STATUSES, { error: `status must be one of ${LAB_REVIEW_STATUSES.join(', ')}` })),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(200))),
});

export interface LabReviewList {
  reviews: LabReview[];
}

export const LabReviewSettings = z.object({
  criticalEscalationMinutes: z
    .number({ error: LAB_REVIEW_MESSAGES.minutesInvalid })
    .check(z.int(LAB_REVIEW_MESSAGES.minutesInvalid), z.gte(1, LAB_REVIEW_MESSAGES.minutesInvalid), z.lte(1440, LAB_REVIEW_MESSAGES.minutesInvalid)),
});
export type LabReviewSettings = z.infer<typeof LabReviewSettings>;
