/**
 * Jobs the schedule-target Lambda runs, by `kind`. A feature that schedules work registers its
 * job in jobs.ts, next to the other kinds, so every Lambda bundle carries the full registry.
 */
export type ScheduledJob = (payload: Record<string, unknown>) => Promise<void>;

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
