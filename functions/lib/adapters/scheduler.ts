/**
 * EventBridge Scheduler's one-time schedules over its documented REST API (restJson1:
 * CreateSchedule POST, GetSchedule GET, DeleteSchedule DELETE /schedules/{Name}) with a
 * SigV4-signed fetch. @aws-sdk/client-scheduler's REST protocol code would join the chunk the
 * practice and notifications groups load at cold start, while the signer is already there for the
 * other AWS calls. scheduler.test.ts proves each call against the SDK client's own request.
 */
import { createHash, randomUUID } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from './node-sha256.js';

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

/** What a one-time schedule is made with: the target, its role and retries, deleted once it has fired. */
export function createScheduleInput(options: ScheduleTargetOptions, name: string, at: Date, payload: object) {
  const { groupName, targetArn, roleArn, deadLetterArn } = options;
  return {
    Name: name,
    GroupName: groupName,
    ScheduleExpression: atExpression(at),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' as const },
    ActionAfterCompletion: 'DELETE' as const,
    State: 'ENABLED' as const,
    Target: {
      Arn: targetArn,
      RoleArn: roleArn,
      Input: JSON.stringify(payload),
      RetryPolicy: {
        MaximumRetryAttempts: options.maximumRetryAttempts ?? 185,
        MaximumEventAgeInSeconds: options.maximumEventAgeInSeconds ?? 86_400,
      },
      ...(deadLetterArn ? { DeadLetterConfig: { Arn: deadLetterArn } } : {}),
    },
  };
}

export interface ScheduleTargetOptions {
  groupName: string;
  targetArn: string;
  roleArn: string;
  deadLetterArn?: string;
  maximumRetryAttempts?: number;
  maximumEventAgeInSeconds?: number;
}

export class SchedulerApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
  ) {
    super(`Scheduler answered ${status} ${type}`);
    this.name = 'SchedulerApiError';
  }
}

export interface SchedulerOptions extends ScheduleTargetOptions {
  region: string;
  /** The local scheduler stand-in (npm start); AWS otherwise. */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  fetch?: typeof fetch;
}

export class EventBridgeScheduleAdapter implements ScheduleAdapter {
  private readonly signer: SignatureV4;
  private readonly base: URL;

  constructor(private readonly options: SchedulerOptions) {
    this.signer = new SignatureV4({ service: 'scheduler', region: options.region, sha256: NodeSha256, credentials: options.credentials ?? defaultProvider() });
    this.base = new URL(options.endpoint ?? `https://scheduler.${options.region}.amazonaws.com/`);
  }

  private async call(method: 'POST' | 'GET' | 'DELETE', name: string, body?: object): Promise<{ status: number; type: string; json: Record<string, unknown> }> {
    const path = `${this.base.pathname.replace(/\/$/, '')}/schedules/${encodeURIComponent(name)}`;
    // DeleteSchedule's idempotency token travels in the query, as the SDK fills it.
    const query: Record<string, string> =
      method === 'POST' ? {} : method === 'DELETE' ? { clientToken: randomUUID(), groupName: this.options.groupName } : { groupName: this.options.groupName };
    const text = body ? JSON.stringify(body) : undefined;
    const signed = await this.signer.sign({
      method,
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      port: this.base.port ? Number(this.base.port) : undefined,
      path,
      query,
      headers: { host: this.base.host, ...(text ? { 'content-type': 'application/json' } : {}) },
      body: text,
    });
    const url = new URL(path, this.base);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const response = await (this.options.fetch ?? fetch)(url, { method, headers: signed.headers as Record<string, string>, body: text });
    const raw = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      /* not JSON: the status decides */
    }
    const type = String(response.headers.get('x-amzn-errortype') ?? json.__type ?? '')
      .split(':')[0]!
      .split('#')
      .pop()!;
    return { status: response.status, type, json };
  }

  async createAt({ name, at, payload }: { name: string; at: Date; payload: object }): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { Name, ...body } = createScheduleInput(this.options, name, at, payload);
    const out = await this.call('POST', name, { ...body, ClientToken: randomUUID() });
    if (out.status === 409 || out.type === 'ConflictException') return;
    if (out.status >= 300) throw new SchedulerApiError(out.status, out.type);
  }

  async delete(name: string): Promise<void> {
    const out = await this.call('DELETE', name);
    if (out.status === 404 || out.type === 'ResourceNotFoundException') return;
    if (out.status >= 300) throw new SchedulerApiError(out.status, out.type);
  }

  async get(name: string): Promise<ScheduleInfo | null> {
    const out = await this.call('GET', name);
    if (out.status === 404 || out.type === 'ResourceNotFoundException') return null;
    if (out.status >= 300) throw new SchedulerApiError(out.status, out.type);
    const at = parseAtExpression(String(out.json.ScheduleExpression ?? ''));
    if (!at) throw new Error(`Schedule ${name} is not a one-time at() schedule`);
    return { name: String(out.json.Name ?? name), at, state: String(out.json.State ?? 'ENABLED') };
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
  return new EventBridgeScheduleAdapter({
    region: env.AWS_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    groupName: required(env, 'SCHEDULER_GROUP'),
    targetArn: required(env, 'SCHEDULER_TARGET_ARN'),
    roleArn: required(env, 'SCHEDULER_ROLE_ARN'),
    deadLetterArn: env.SCHEDULER_DLQ_ARN || undefined,
  });
}
