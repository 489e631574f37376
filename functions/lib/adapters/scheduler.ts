import { createHash } from 'node:crypto';
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';

export interface ScheduleInfo {
  name: string;
  at: Date;
  state: string;
}

/** One-time schedules that fire into the schedule-target Lambda (EventBridge Scheduler `at()`). */
export interface ScheduleAdapter {
  /** Idempotent: creating a schedule that already exists is a no-op. */
  createAt(input: { name: string; at: Date; payload: object }): Promise<void>;
  /** Deleting a schedule that does not exist (already fired, or never made) is a no-op. */
  delete(name: string): Promise<void>;
  get(name: string): Promise<ScheduleInfo | null>;
}

const NAME_LIMIT = 64;

/**
 * Deterministic schedule name for one job, so a retry creates or deletes the same schedule.
 * Scheduler names are at most 64 of [0-9a-zA-Z-_.]; long ids keep a readable prefix and a hash.
 */
export function scheduleName(kind: string, id: string): string {
  const clean = (s: string) => s.replace(/[^0-9a-zA-Z\-_.]/g, '-');
  const full = `${clean(kind)}.${clean(id)}`;
  if (full.length <= NAME_LIMIT && clean(kind) === kind && clean(id) === id) return full;
  const hash = createHash('sha256').update(`${kind}\u0000${id}`).digest('hex').slice(0, 16);
  return `${full.slice(0, NAME_LIMIT - hash.length - 1)}_${hash}`;
}

/** Scheduler's at() takes local time in ScheduleExpressionTimezone, to the second: yyyy-mm-ddThh:mm:ss. */
export function atExpression(at: Date): string {
  return `at(${at.toISOString().slice(0, 19)})`;
}

export function parseAtExpression(expression: string): Date | null {
  const match = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/.exec(expression);
  return match ? new Date(`${match[1]}Z`) : null;
}

export interface EventBridgeScheduleOptions {
  client: SchedulerClient;
  groupName: string;
  targetArn: string;
  roleArn: string;
  deadLetterArn?: string;
  maximumRetryAttempts?: number;
  maximumEventAgeInSeconds?: number;
}

export class EventBridgeScheduleAdapter implements ScheduleAdapter {
  constructor(private readonly options: EventBridgeScheduleOptions) {}

  async createAt({ name, at, payload }: { name: string; at: Date; payload: object }): Promise<void> {
    const { client, groupName, targetArn, roleArn, deadLetterArn } = this.options;
    try {
      await client.send(
        new CreateScheduleCommand({
          Name: name,
          GroupName: groupName,
          ScheduleExpression: atExpression(at),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          State: 'ENABLED',
          Target: {
            Arn: targetArn,
            RoleArn: roleArn,
            Input: JSON.stringify(payload),
            RetryPolicy: {
              MaximumRetryAttempts: this.options.maximumRetryAttempts ?? 185,
              MaximumEventAgeInSeconds: this.options.maximumEventAgeInSeconds ?? 86_400,
            },
            ...(deadLetterArn ? { DeadLetterConfig: { Arn: deadLetterArn } } : {}),
          },
        }),
      );
    } catch (error) {
      if (error instanceof ConflictException) return;
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    try {
      await this.options.client.send(new DeleteScheduleCommand({ Name: name, GroupName: this.options.groupName }));
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return;
      throw error;
    }
  }

  async get(name: string): Promise<ScheduleInfo | null> {
    try {
      const out = await this.options.client.send(new GetScheduleCommand({ Name: name, GroupName: this.options.groupName }));
      const at = parseAtExpression(out.ScheduleExpression ?? '');
      if (!at) throw new Error(`Schedule ${name} is not a one-time at() schedule`);
      return { name: out.Name ?? name, at, state: out.State ?? 'ENABLED' };
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return null;
      throw error;
    }
  }
}

function required(env: NodeJS.ProcessEnv, key: string): string {
  const value = env[key];
  if (!value) throw new Error(`${key} is not set`);
  return value;
}

/**
 * SCHEDULER_ENDPOINT is set only by the local runtime: its scheduler speaks the Scheduler REST
 * API, so this same code path runs in both places.
 */
export function scheduleAdapterFromEnv(env: NodeJS.ProcessEnv = process.env): ScheduleAdapter {
  const endpoint = env.SCHEDULER_ENDPOINT;
  const region = env.AWS_REGION ?? 'us-east-1';
  const client = new SchedulerClient(
    endpoint ? { endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : { region },
  );
  return new EventBridgeScheduleAdapter({
    client,
    groupName: required(env, 'SCHEDULER_GROUP'),
    targetArn: required(env, 'SCHEDULER_TARGET_ARN'),
    roleArn: required(env, 'SCHEDULER_ROLE_ARN'),
    deadLetterArn: env.SCHEDULER_DLQ_ARN || undefined,
  });
}
