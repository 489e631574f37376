/**
 * Recurring schedules that fire the schedule-target Lambda on their own, with no user acting:
 * the stack deploys one EventBridge Scheduler schedule per entry (infra/lib/scheduler.ts) and the
 * local runtime creates the same ones in its scheduler stand-in, so both run the same job code.
 */
import { DOSESPOT_SYNC_JOB_KIND } from '../../lib/scheduled-jobs.js';

export interface RecurringSchedule {
  /** Schedule name in the practice's schedule group ([0-9a-zA-Z-_.], at most 64). */
  name: string;
  /** Scheduler's rate() expression. */
  expression: string;
  /** The Input the target receives: its `kind` names the registered job (jobs.ts). */
  input: { kind: string };
  description: string;
}

/** A run is idempotent and a missed one is made up by the next, so retries stop well within the period. */
export const RECURRING_RETRY = { maximumRetryAttempts: 2, maximumEventAgeInSeconds: 1800 } as const;
/** Scheduler may start a run up to this many minutes late, spreading the practices' runs. */
export const RECURRING_WINDOW_MINUTES = 10;

export const RECURRING_SCHEDULES: readonly RecurringSchedule[] = [
  {
    name: 'dosespot-sync',
    // Prescriptions written in DoseSpot reach the chart within the hour even if no chart is opened.
    expression: 'rate(1 hour)',
    input: { kind: DOSESPOT_SYNC_JOB_KIND },
    description: 'syncPatientRx: prescriptions written in DoseSpot become RX_DOSESPOT notes and chart medications',
  },
];
