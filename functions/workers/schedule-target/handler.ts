import { log } from '../../lib/log.js';
import './jobs.js';
import { scheduledJob } from './registry.js';

export class UnknownScheduledJobError extends Error {
  override name = 'UnknownScheduledJobError';
}

/**
 * Target of every EventBridge Scheduler schedule: the schedule's Input arrives as the event.
 * A thrown error makes Scheduler retry (RetryPolicy) and finally dead-letter the event.
 */
export async function handler(event: unknown): Promise<void> {
  const payload = event && typeof event === 'object' ? (event as Record<string, unknown>) : {};
  const kind = typeof payload.kind === 'string' ? payload.kind : undefined;
  const job = kind ? scheduledJob(kind) : undefined;
  if (!job) {
    log.error('unknown scheduled job', { kind: kind ?? null });
    throw new UnknownScheduledJobError(`No scheduled job for kind ${kind ?? '(missing)'}`);
  }
  log.info('scheduled job start', { kind });
  await job(payload);
  log.info('scheduled job done', { kind });
}
