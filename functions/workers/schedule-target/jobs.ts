/**
 * Registers every group's scheduled jobs (functions/scheduled-jobs.ts). A feature that schedules
 * work adds its job to its group's jobs.ts and schedules with `{ kind: '<its kind>', ... }`.
 */
import { SCHEDULED_JOB_TABLES } from '../../scheduled-jobs.js';
import { registerScheduledJob } from './registry.js';

for (const table of SCHEDULED_JOB_TABLES) {
  for (const [kind, job] of Object.entries(table)) registerScheduledJob(kind, job);
}
