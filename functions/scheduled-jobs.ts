/**
 * The schedule-target worker's job registry: every group's scheduled jobs, by kind. Like
 * groups.ts this file sits above the groups, so the worker receives their jobs without importing
 * a group's folder. A group adds a job to its own jobs.ts; a new group's table is joined here.
 * Each table imports its job code lazily (or only small modules), so the worker's bundle does not
 * carry whole groups.
 */
import type { ScheduledJobs } from './lib/scheduled-jobs.js';
import { MESSAGING_JOBS } from './messaging/jobs.js';
import { NOTE_JOBS } from './notes/jobs.js';
import { NOTIFICATION_JOBS } from './notifications/jobs.js';
import { PRACTICE_JOBS } from './practice/jobs.js';

export { smsTopicHandler } from './messaging/jobs.js';

export const SCHEDULED_JOB_TABLES: readonly ScheduledJobs[] = [NOTIFICATION_JOBS, MESSAGING_JOBS, PRACTICE_JOBS, NOTE_JOBS];
