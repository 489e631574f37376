import * as z from 'zod';

/** GET /v1/patients/{patientId}/access-history?limit=&before= (admins): newest first, paged by `before`. */
export const ACCESS_HISTORY_PAGE = 100;
export const AccessHistoryQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(500).default(ACCESS_HISTORY_PAGE),
  /** The `at` of the last entry of the previous page. */
  before: z.string().max(40).optional(),
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
