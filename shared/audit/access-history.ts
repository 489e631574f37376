import * as z from '../zod.js';

/** GET /v1/patients/{patientId}/access-history?limit=&before= (admins): newest first, paged by `before`. */
export const ACCESS_HISTORY_PAGE = 100;
export const AccessHistoryQuery = z.object({
  limit: z._default(z.coerce.number({ error: 'limit must be a number' }).check(z.int(), z.gte(1), z.lte(500)), ACCESS_HISTORY_PAGE),
  /** The `at` of the last entry of the previous page. */
  before: z.optional(z.string().check(z.maxLength(40))),
});
export type AccessHistoryQuery = z.output<typeof AccessHistoryQuery>;

/** One access to a patient's data: who, when, what, from where; refused attempts say why. */
export interface AccessHistoryEntry {
  at: string;
  actor: { userId: string; email: string; name?: string; role?: string; superUser?: boolean };
  action: string;
  entity: string;
  entityId?: string;
  routeKey?: string;
  sourceIp?: string;
  userAgent?: string;
  outcome: 'allowed' | 'refused';
  reason?: string;
}

export interface AccessHistoryPage {
  entries: AccessHistoryEntry[];
  /** Pass as `before` for the next (older) page; absent on the last page. */
  next?: string;
}
