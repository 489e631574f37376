/**
 * The shape of a scheduled job, shared by the groups that define jobs and the schedule-target
 * worker that runs them. Each group exports its jobs as a `ScheduledJobs` table (its jobs.ts);
 * functions/scheduled-jobs.ts, above the groups like groups.ts, joins the tables for the worker.
 */
export type ScheduledJob = (payload: Record<string, unknown>) => Promise<void>;

/** Jobs by the `kind` their schedule's Input carries. */
export type ScheduledJobs = Readonly<Record<string, ScheduledJob>>;

/** Spec shell §5 background task type syncPatientRx: the hourly recurring run's kind. */
export const DOSESPOT_SYNC_JOB_KIND = 'syncPatientRx';
