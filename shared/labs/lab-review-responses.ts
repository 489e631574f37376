/**
 * What the results-review endpoints answer (issue 40), read by the web client. The dashboard's
 * widget loads these with the answer (`() => import(…)`), so zod stays out of the first screen.
 */
import * as z from '../zod.js';
import { LAB_REVIEW_STATUSES } from './lab-review-format.js';

const LabReviewFlag = z.object({
  code: z.string(),
  text: z.string(),
  value: z.string(),
  flag: z.enum(['high', 'low', 'abnormal']),
  critical: z.boolean(),
});

const LabReviewFollowUpMessage = z.object({
  text: z.string(),
  to: z.string(),
  from: z.string(),
  status: z.enum(['SENT', 'FAILED']),
  noteId: z.optional(z.string()),
  conversationId: z.optional(z.string()),
  error: z.optional(z.string()),
});

/** GET and POST /v1/notes/labs/reviews/{noteId}: one result to review, or as signed off. */
export const LabReviewRecord = z.object({
  noteId: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  orderingProviderId: z.string(),
  orderingProviderName: z.string(),
  tests: z.array(z.string()),
  severity: z.enum(['critical', 'abnormal', 'normal']),
  flags: z.array(LabReviewFlag),
  status: z.enum(LAB_REVIEW_STATUSES),
  waitingSince: z.string(),
  receivedAt: z.string(),
  reviewedAt: z.optional(z.string()),
  reviewedBy: z.optional(z.object({ userId: z.string(), name: z.string() })),
  comment: z.optional(z.string()),
  followUpTaskId: z.optional(z.string()),
  followUpMessage: z.optional(LabReviewFollowUpMessage),
  escalatedTaskId: z.optional(z.string()),
  escalatedAt: z.optional(z.string()),
  version: z.number(),
});

/** GET /v1/notes/labs/reviews?status&limit. */
export const LabReviewList = z.object({ reviews: z.array(LabReviewRecord) });

/** GET and POST /v1/notes/labs/review-settings. */
export const LabReviewSettingsRecord = z.object({ criticalEscalationMinutes: z.number() });
