// What the DoseSpot endpoints answer, read by the web client. Kept apart from dosespot.ts so the
// practice Lambda, which only needs the types, does not bundle these schemas.
import * as z from '../zod.js';

export const DoseSpotSso = z.object({ ssoUrl: z.string() });
export type DoseSpotSso = z.infer<typeof DoseSpotSso>;

export const DoseSpotSyncResult = z.object({
  /** How many prescriptions became notes in this run (0 when all were synced before). */
  created: z.number(),
  noteIds: z.array(z.string()),
  /** Its background task record (GET /v1/practices/users/me/dosespot-sync). */
  taskId: z.string(),
});
export type DoseSpotSyncResult = z.infer<typeof DoseSpotSyncResult>;

/** Spec shell §3 background task statuses and types; the DoseSpot sync writes syncPatientRx ones. */
export const BACKGROUND_TASK_STATUSES = ['COMPLETED', 'ACTIVE', 'PROCESSING', 'FAILED', 'DELETED'] as const;
export type BackgroundTaskStatus = (typeof BACKGROUND_TASK_STATUSES)[number];
export const BACKGROUND_TASK_TYPES = ['syncPatientRx', 'createCommunication', 'createScheduledNote'] as const;
export type BackgroundTaskType = (typeof BACKGROUND_TASK_TYPES)[number];

/** What a finished sync brought back: counts, and the notes it wrote. */
export const DoseSpotSyncCounts = z.object({
  /** Patients whose prescriptions were read from DoseSpot in this run. */
  patients: z.number(),
  /** Prescriptions that became RX_DOSESPOT notes (0 when all were synced before). */
  created: z.number(),
  /** Patients DoseSpot refused (the others were synced); runs recorded before this count existed read as none. */
  failed: z._default(z.number(), 0),
  /** Patients left for the next hourly run because this one reached its time budget; none on older runs. */
  deferred: z._default(z.number(), 0),
  noteIds: z.array(z.string()),
});
export type DoseSpotSyncCounts = z.infer<typeof DoseSpotSyncCounts>;

/** One run of a background task, readable at GET /v1/practices/users/me/dosespot-sync (spec shell §3). */
export const BackgroundTask = z.object({
  taskId: z.string(),
  taskType: z.enum(BACKGROUND_TASK_TYPES),
  status: z.enum(BACKGROUND_TASK_STATUSES),
  /** The hourly schedule, or a prescriber's on-demand sync. */
  trigger: z.enum(['scheduled', 'on-demand']),
  /** The user who asked for it, or `scheduled:dosespot-sync`. */
  requestedBy: z.string(),
  /** The one patient an on-demand sync is for. */
  patientId: z.nullable(z.string()),
  startedAt: z.string(),
  completedAt: z.nullable(z.string()),
  /** Set when COMPLETED. */
  result: z.nullable(DoseSpotSyncCounts),
  /** Why it FAILED. */
  failureReason: z.nullable(z.string()),
});
export type BackgroundTask = z.infer<typeof BackgroundTask>;

/** GET /v1/practices/users/me/dosespot-sync: the latest sync runs. */
export const DoseSpotSyncTaskList = z.object({ tasks: z.array(BackgroundTask) });
