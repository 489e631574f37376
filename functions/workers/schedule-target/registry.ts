/**
 * Jobs the schedule-target Lambda runs, by `kind`. jobs.ts registers each group's table
 * (functions/scheduled-jobs.ts); a kind registered twice is refused.
 */
import type { ScheduledJob } from '../../lib/scheduled-jobs.js';

export type { ScheduledJob };

const jobs = new Map<string, ScheduledJob>();

export function registerScheduledJob(kind: string, job: ScheduledJob): void {
  if (jobs.has(kind)) throw new Error(`A scheduled job of kind ${kind} is already registered`);
  jobs.set(kind, job);
}

export function scheduledJob(kind: string): ScheduledJob | undefined {
  return jobs.get(kind);
}

export function registeredKinds(): string[] {
  return [...jobs.keys()];
}
