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

/** Spec shell §3 background task statuses and types; the DoseSpot sync writes syncPatientRx ones. */
export const BACKGROUND_TASK_STATUSES = ['COMPLETED', 'ACTIVE', 'PROCESSING', 'FAILED', 'DELETED'] as const;
export type BackgroundTaskStatus = (typeof BACKGROUND_TASK_STATUSES)[number];
export const BACKGROUND_TASK_TYPES = ['syncPatientRx', 'createCommunication', 'createScheduledNote'] as const;
export type BackgroundTaskType = (typeof BACKGROUND_TASK_TYPES)[number];

/** What a finished sync brought back: counts, and the notes it wrote. */
export interface DoseSpotSyncCounts {
  /** Patients whose prescriptions were read from DoseSpot in this run. */
  patients: number;
  /** Prescriptions that became RX_DOSESPOT notes (0 when all were synced before). */
  created: number;
  /** Patients DoseSpot refused (the others were synced). */
  failed: number;
  /** Patients left for the next hourly run because this one reached its time budget. */
  deferred: number;
  noteIds: string[];
}

/** One run of a background task, readable at GET /v1/practices/users/me/dosespot-sync. */
export interface BackgroundTask {
  taskId: string;
  taskType: BackgroundTaskType;
  status: BackgroundTaskStatus;
  /** The hourly schedule, or a prescriber's on-demand sync. */
  trigger: 'scheduled' | 'on-demand';
  /** The user who asked for it, or `scheduled:dosespot-sync`. */
  requestedBy: string;
  /** The one patient an on-demand sync is for. */
  patientId: string | null;
  startedAt: string;
  completedAt: string | null;
  /** Set when COMPLETED. */
  result: DoseSpotSyncCounts | null;
  /** Why it FAILED. */
  failureReason: string | null;
}

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
