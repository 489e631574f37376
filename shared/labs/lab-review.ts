import * as z from '../zod.js';
import { LAB_REVIEW_COMMENT_MAX, LAB_REVIEW_MESSAGES, LAB_REVIEW_STATUSES, type LabReview } from './lab-review-format.js';

export * from './lab-review-format.js';

/** Request schemas of Results to review (functions/notes/lab-reviews.ts). */
const noteId = z.string().check(z.trim(), z.minLength(1), z.maxLength(80));
export const LabReviewParams = z.object({ noteId });

/** POST /v1/notes/labs/reviews/{noteId}: signs the result off. */
export const LabReviewBody = z.object({
  /** The version the reviewer saw: results that arrived since are refused (409) so none is signed off unseen. */
  version: z.number({ error: 'version is required' }).check(z.int(), z.nonnegative()),
  comment: z.optional(z.string().check(z.trim(), z.maxLength(LAB_REVIEW_COMMENT_MAX, LAB_REVIEW_MESSAGES.commentTooLong))),
  /** A follow-up task made with the sign-off (POST /v1/tasks), linked here. */
  followUpTaskId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(120))),
});
export type LabReviewBody = z.infer<typeof LabReviewBody>;

export const LabReviewListQuery = z.object({
  status: z.optional(z.enum(LAB_REVIEW_STATUSES, { error: `status must be one of ${LAB_REVIEW_STATUSES.join(', ')}` })),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(200))),
});

export interface LabReviewList {
  reviews: LabReview[];
}

export const LabReviewSettings = z.object({
  criticalEscalationMinutes: z.number({ error: LAB_REVIEW_MESSAGES.minutesInvalid }).check(z.int(LAB_REVIEW_MESSAGES.minutesInvalid), z.gte(1, LAB_REVIEW_MESSAGES.minutesInvalid), z.lte(1440, LAB_REVIEW_MESSAGES.minutesInvalid)),
});
export type LabReviewSettings = z.infer<typeof LabReviewSettings>;
