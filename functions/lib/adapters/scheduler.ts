import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { createScheduleInput, parseAtExpression, type ScheduleAdapter, type ScheduleInfo } from './scheduler-http.js';

export { atExpression, createScheduleInput, parseAtExpression, scheduleName } from './scheduler-http.js';
export type { ScheduleAdapter, ScheduleInfo, ScheduleTargetOptions } from './scheduler-http.js';

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
    try {
      await this.options.client.send(new CreateScheduleCommand(createScheduleInput(this.options, name, at, payload)));
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
