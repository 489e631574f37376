import type { SNSEvent } from 'aws-lambda';
import { log } from '../../lib/log.js';
import { smsTopicHandler } from '../../scheduled-jobs.js';
import './jobs.js';
import { scheduledJob } from './registry.js';

export class UnknownScheduledJobError extends Error {
  override name = 'UnknownScheduledJobError';
}

/**
 * Target of every EventBridge Scheduler schedule: the schedule's Input arrives as the event.
 * A thrown error makes Scheduler retry (RetryPolicy) and finally dead-letter the event. It is also
 * subscribed to the SMS topic: an SNS event goes to the inbound-text handler.
 */
export async function handler(event: unknown, context?: { invokedFunctionArn?: string }): Promise<void> {
  // A job that schedules a next run targets this function; its ARN cannot be in its own environment.
  if (!process.env.SCHEDULER_TARGET_ARN && context?.invokedFunctionArn) process.env.SCHEDULER_TARGET_ARN = unqualifiedArn(context.invokedFunctionArn);
  // The same worker consumes the practice's SMS topic (inbound texts, delivery receipts).
  if (isSnsEvent(event)) return smsTopicHandler(event);
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

/** arn:aws:lambda:<region>:<account>:function:<name>[:<alias or version>] without the qualifier. */
export function unqualifiedArn(arn: string): string {
  return arn.split(':').slice(0, 7).join(':');
}

function isSnsEvent(event: unknown): event is SNSEvent {
  const records = (event as { Records?: { EventSource?: string }[] } | null)?.Records;
  return Array.isArray(records) && records.length > 0 && records.every((r) => r?.EventSource === 'aws:sns');
}
