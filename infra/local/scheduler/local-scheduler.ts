import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseAtExpression } from '../../../functions/lib/adapters/scheduler.js';
import { log } from '../../../functions/lib/log.js';
import { scheduleKey, ScheduleStore, type StoredSchedule } from './schedule-store.js';

export interface LocalSchedulerOptions {
  dataDir: string;
  port?: number;
  /** Runs the target (the schedule-target Lambda locally) with the schedule's Input; throws on failure. */
  invokeTarget: (targetArn: string, input: string) => Promise<void>;
  pollMs?: number;
  /** First retry delay after a failed delivery; doubles per attempt up to a minute. */
  retryBaseMs?: number;
  region?: string;
  accountId?: string;
}

export interface LocalScheduler {
  endpoint: string;
  /**
   * What a deploy does for a schedule the stack declares: creates it, or replaces its expression
   * and target when they changed, keeping when it is next due.
   */
  ensure(groupName: string, name: string, body: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

const RATE_UNITS: Record<string, number> = { minute: 60_000, minutes: 60_000, hour: 3_600_000, hours: 3_600_000, day: 86_400_000, days: 86_400_000 };

/** Scheduler's rate(value unit): the period in ms, or null. */
export function parseRateExpression(expression: string): number | null {
  const match = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(expression);
  if (!match || Number(match[1]) < 1) return null;
  return Number(match[1]) * RATE_UNITS[match[2]!]!;
}

/** The first occurrence after now: a period missed while the process was stopped runs once, not once per period. */
const nextDue = (dueAt: string, periodMs: number, now = Date.now()) => {
  const due = Date.parse(dueAt);
  return new Date(due + Math.max(1, Math.ceil((now - due) / periodMs)) * periodMs).toISOString();
};

const NAME = /^[0-9a-zA-Z\-_.]{1,64}$/;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new ApiError(400, 'ValidationException', 'Request body is not valid JSON');
  }
}

function reply(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
  res.end(JSON.stringify(body));
}

const epochSeconds = (iso: string) => Date.parse(iso) / 1000;

/**
 * A stand-in for EventBridge Scheduler that speaks its REST API (CreateSchedule, GetSchedule,
 * DeleteSchedule for one-time at() schedules), so @aws-sdk/client-scheduler runs against it with
 * only an endpoint override. Delivery is at least once: a schedule is removed only after its
 * target succeeded, and one that fell due while the process was stopped fires on the next start.
 */
export async function startLocalScheduler(opts: LocalSchedulerOptions): Promise<LocalScheduler> {
  const pollMs = opts.pollMs ?? 1000;
  const retryBaseMs = opts.retryBaseMs ?? 1000;
  const region = opts.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const accountId = opts.accountId ?? '000000000000';
  const store = new ScheduleStore(join(opts.dataDir, 'scheduler'));
  await store.load();

  function createSchedule(name: string, body: Record<string, unknown>, replacing = false): StoredSchedule {
    const groupName = typeof body.GroupName === 'string' && body.GroupName ? body.GroupName : 'default';
    if (!replacing && store.get(scheduleKey(groupName, name))) throw new ApiError(409, 'ConflictException', `Schedule ${name} already exists.`);
    const expression = String(body.ScheduleExpression ?? '');
    const periodMs = parseRateExpression(expression) ?? undefined;
    const due = periodMs ? new Date(Date.now() + periodMs) : parseAtExpression(expression);
    if (!due)
      throw new ApiError(400, 'ValidationException', `Invalid Schedule Expression ${expression}. The local scheduler supports at() and rate() schedules.`);
    const timezone = typeof body.ScheduleExpressionTimezone === 'string' ? body.ScheduleExpressionTimezone : 'UTC';
    if (timezone !== 'UTC') throw new ApiError(400, 'ValidationException', 'The local scheduler supports ScheduleExpressionTimezone UTC only.');
    const window = body.FlexibleTimeWindow as StoredSchedule['flexibleTimeWindow'] | undefined;
    if (!window?.Mode) throw new ApiError(400, 'ValidationException', 'FlexibleTimeWindow is required.');
    const target = body.Target as StoredSchedule['target'] | undefined;
    if (!target?.Arn || !target.RoleArn) throw new ApiError(400, 'ValidationException', 'Target Arn and RoleArn are required.');
    const now = new Date().toISOString();
    return {
      name,
      groupName,
      arn: `arn:aws:scheduler:${region}:${accountId}:schedule/${groupName}/${name}`,
      scheduleExpression: expression,
      scheduleExpressionTimezone: timezone,
      dueAt: due.toISOString(),
      state: body.State === 'DISABLED' ? 'DISABLED' : 'ENABLED',
      actionAfterCompletion: body.ActionAfterCompletion === 'DELETE' ? 'DELETE' : 'NONE',
      flexibleTimeWindow: window,
      target,
      description: typeof body.Description === 'string' ? body.Description : undefined,
      creationDate: now,
      lastModificationDate: now,
      attempts: 0,
      ...(periodMs ? { periodMs } : {}),
    };
  }

  /** The schedule `body` describes, or null when `existing` already matches it. */
  function createScheduleOrReplace(name: string, body: Record<string, unknown>, existing: StoredSchedule | undefined): StoredSchedule | null {
    if (!existing) return createSchedule(name, body);
    const same =
      existing.scheduleExpression === body.ScheduleExpression &&
      JSON.stringify(existing.target) === JSON.stringify(body.Target) &&
      existing.state === (body.State ?? 'ENABLED');
    if (same) return null;
    const fresh = createSchedule(name, body, true);
    return { ...fresh, dueAt: existing.periodMs === fresh.periodMs ? existing.dueAt : fresh.dueAt, creationDate: existing.creationDate };
  }

  function describe(schedule: StoredSchedule) {
    return {
      Arn: schedule.arn,
      GroupName: schedule.groupName,
      Name: schedule.name,
      ScheduleExpression: schedule.scheduleExpression,
      ScheduleExpressionTimezone: schedule.scheduleExpressionTimezone,
      State: schedule.state,
      ActionAfterCompletion: schedule.actionAfterCompletion,
      FlexibleTimeWindow: schedule.flexibleTimeWindow,
      Target: schedule.target,
      Description: schedule.description,
      CreationDate: epochSeconds(schedule.creationDate),
      LastModificationDate: epochSeconds(schedule.lastModificationDate),
    };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    // Local only (Scheduler has no such call): a recurring schedule falls due now, for a person or a test to see it run.
    const runNow = /^\/local\/schedules\/([^/]+)\/run$/.exec(url.pathname);
    if (runNow && req.method === 'POST') {
      const key = scheduleKey(url.searchParams.get('groupName') || 'default', decodeURIComponent(runNow[1]!));
      const existing = store.get(key);
      if (!existing) throw new ApiError(404, 'ResourceNotFoundException', `Schedule ${runNow[1]} does not exist.`);
      await store.put({ ...existing, dueAt: new Date().toISOString(), nextAttemptAt: undefined, completedAt: undefined });
      void tick();
      return reply(res, 202, {});
    }
    const match = /^\/schedules\/([^/]+)$/.exec(url.pathname);
    if (!match) throw new ApiError(404, 'UnknownOperationException', `No local Scheduler operation for ${req.method} ${url.pathname}`);
    const name = decodeURIComponent(match[1]);
    if (!NAME.test(name)) throw new ApiError(400, 'ValidationException', `Invalid schedule name ${name}.`);
    const groupName = url.searchParams.get('groupName') || 'default';
    if (req.method === 'POST') {
      const schedule = createSchedule(name, await readJson(req));
      await store.put(schedule);
      return reply(res, 200, { ScheduleArn: schedule.arn });
    }
    const existing = store.get(scheduleKey(groupName, name));
    if (!existing) throw new ApiError(404, 'ResourceNotFoundException', `Schedule ${name} does not exist.`);
    if (req.method === 'GET') return reply(res, 200, describe(existing));
    if (req.method === 'DELETE') {
      await store.remove(scheduleKey(groupName, name));
      return reply(res, 200, {});
    }
    throw new ApiError(404, 'UnknownOperationException', `No local Scheduler operation for ${req.method} ${url.pathname}`);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error) => {
      if (error instanceof ApiError) return reply(res, error.status, { Message: error.message }, error.errorType);
      log.error('local scheduler request failed', { error: String(error) });
      reply(res, 500, { Message: 'Internal error' }, 'InternalServerException');
    });
  });

  async function deliver(schedule: StoredSchedule): Promise<void> {
    const key = scheduleKey(schedule.groupName, schedule.name);
    try {
      await opts.invokeTarget(schedule.target.Arn, schedule.target.Input ?? '{}');
    } catch (error) {
      const current = store.get(key);
      if (!current) return;
      const attempts = current.attempts + 1;
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const maxRetries = current.target.RetryPolicy?.MaximumRetryAttempts ?? 185;
      const maxAgeMs = (current.target.RetryPolicy?.MaximumEventAgeInSeconds ?? 86_400) * 1000;
      if (attempts > maxRetries || Date.now() - Date.parse(current.dueAt) > maxAgeMs) {
        log.error('local schedule dead-lettered', { schedule: key, attempts, error: message });
        const next = current.periodMs
          ? { ...current, dueAt: nextDue(current.dueAt, current.periodMs), attempts: 0, nextAttemptAt: undefined, lastError: message }
          : undefined;
        await store.deadLetter(key, message, next);
        return;
      }
      const delay = Math.min(retryBaseMs * 2 ** (attempts - 1), 60_000);
      log.warn('local schedule delivery failed; will retry', { schedule: key, attempts, delayMs: delay, error: message });
      await store.put({ ...current, attempts, lastError: message, nextAttemptAt: new Date(Date.now() + delay).toISOString() });
      return;
    }
    const current = store.get(key);
    if (!current || current.creationDate !== schedule.creationDate) return;
    const ranAt = new Date().toISOString();
    if (current.periodMs)
      await store.put({
        ...current,
        dueAt: nextDue(current.dueAt, current.periodMs),
        attempts: 0,
        lastRunAt: ranAt,
        lastError: undefined,
        nextAttemptAt: undefined,
      });
    else if (current.actionAfterCompletion === 'DELETE') await store.remove(key);
    else await store.put({ ...current, completedAt: ranAt, lastError: undefined, nextAttemptAt: undefined });
  }

  let ticking: Promise<void> | null = null;
  function tick(): Promise<void> {
    if (ticking) return ticking;
    ticking = (async () => {
      const now = Date.now();
      const due = store
        .all()
        .filter((s) => s.state === 'ENABLED' && !s.completedAt && Date.parse(s.dueAt) <= now)
        .filter((s) => !s.nextAttemptAt || Date.parse(s.nextAttemptAt) <= now)
        .sort((a, b) => a.dueAt.localeCompare(b.dueAt));
      for (const schedule of due) await deliver(schedule);
    })()
      .catch((error) => log.error('local scheduler tick failed', { error: String(error) }))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const timer = setInterval(() => void tick(), pollMs);
  void tick();

  return {
    endpoint: `http://127.0.0.1:${port}`,
    async ensure(groupName, name, body) {
      const existing = store.get(scheduleKey(groupName, name));
      const wanted = createScheduleOrReplace(name, { ...body, GroupName: groupName }, existing);
      if (wanted) await store.put(wanted);
    },
    async stop() {
      clearInterval(timer);
      await ticking;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await store.flush();
    },
  };
}
