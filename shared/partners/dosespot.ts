import * as z from '../zod.js';

export { DOSESPOT_MESSAGES } from './dosespot-messages.js';

export const DoseSpotSsoQuery = z.strictObject({
  patientId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
});
export type DoseSpotSsoQuery = z.infer<typeof DoseSpotSsoQuery>;

export type { DoseSpotSso, DoseSpotSyncResult } from './dosespot-responses.js';

export const DoseSpotSyncQuery = z.strictObject({
  patientId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
});

export { BACKGROUND_TASK_STATUSES, BACKGROUND_TASK_TYPES } from './dosespot-responses.js';
export type { BackgroundTaskStatus, BackgroundTaskType } from './dosespot-responses.js';

import { BACKGROUND_TASK_STATUSES, type BackgroundTask } from './dosespot-responses.js';
export type { BackgroundTask, DoseSpotSyncCounts } from './dosespot-responses.js';

/** Latest first, at most this many a read. */
export const BACKGROUND_TASKS_LIST_MAX = 100;

export const DoseSpotSyncTasksQuery = z.strictObject({
  status: z.optional(
    z.pipe(
      z.pipe(
        z.string().check(z.maxLength(200)),
        z.transform((s) => s.split(/[\s,]+/).filter(Boolean)),
      ),
      z.array(z.enum(BACKGROUND_TASK_STATUSES, { error: `status must be among ${BACKGROUND_TASK_STATUSES.join(', ')}` })).check(z.minLength(1)),
    ),
  ),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(BACKGROUND_TASKS_LIST_MAX)), 20),
});
export type DoseSpotSyncTasksQuery = z.infer<typeof DoseSpotSyncTasksQuery>;

export interface DoseSpotSyncTasks {
  tasks: BackgroundTask[];
}
