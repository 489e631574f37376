/**
 * GET /v1/patients/{patientId}/access-history as the web client reads it. Kept apart from
 * access-history.ts so the patients Lambda, which builds the page from its interfaces, does not bundle it.
 */
import * as z from '../zod.js';

export const AccessHistoryEntryAnswer = z.object({
  at: z.string(),
  actor: z.object({
    userId: z.string(),
    email: z.string(),
    name: z.optional(z.string()),
    role: z.optional(z.string()),
    superUser: z.optional(z.boolean()),
  }),
  action: z.string(),
  entity: z.string(),
  entityId: z.optional(z.string()),
  routeKey: z.optional(z.string()),
  sourceIp: z.optional(z.string()),
  userAgent: z.optional(z.string()),
  outcome: z.enum(['allowed', 'refused']),
  reason: z.optional(z.string()),
});

/** One page, newest first; `next` (the `before` of the older page) is absent on the last page. */
export const AccessHistoryPageAnswer = z.object({ entries: z.array(AccessHistoryEntryAnswer), next: z.optional(z.string()) });
