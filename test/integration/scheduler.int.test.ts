import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleAdapterFromEnv, scheduleName, type ScheduleAdapter } from '../../functions/lib/adapters/scheduler.js';
import { handler as scheduleTarget } from '../../functions/workers/schedule-target/handler.js';
import { registerScheduledJob } from '../../functions/workers/schedule-target/registry.js';
import { startLocalScheduler, type LocalScheduler } from '../../infra/local/scheduler/local-scheduler.js';
import { eventually, holdsFor, untilTime } from '../support/eventually.js';

const TARGET_ARN = 'arn:aws:lambda:us-east-1:000000000000:function:schedule-target';
const fired: { id: string; at: number }[] = [];
const failuresLeft = new Map<string, number>();

registerScheduledJob('int-probe', async (payload) => {
  const id = String(payload.id);
  const left = failuresLeft.get(id) ?? 0;
  if (left > 0) {
    failuresLeft.set(id, left - 1);
    throw new Error('transient failure');
  }
  fired.push({ id, at: Date.now() });
});

const firedCount = (id: string) => fired.filter((f) => f.id === id).length;
const firedTimes = (id: string, times: number) =>
  eventually(
    `the ${id} schedule to fire ${times} time(s)`,
    () => firedCount(id),
    (n) => n === times,
    { within: 8000, every: 50 },
  );
/** The scheduler below ticks every 100 ms; a schedule that would fire does so within three ticks. */
const THREE_TICKS_MS = 300;

describe('local EventBridge Scheduler behind the Scheduler adapter', () => {
  let dataDir: string;
  let scheduler: LocalScheduler;
  let adapter: ScheduleAdapter;
  const invocations: string[] = [];

  async function start(port = 0) {
    scheduler = await startLocalScheduler({
      dataDir,
      port,
      pollMs: 100,
      retryBaseMs: 200,
      // The same handler module the target Lambda runs, given the schedule's Input as its event.
      invokeTarget: async (arn, input) => {
        invocations.push(arn);
        await scheduleTarget(JSON.parse(input));
      },
    });
    adapter = scheduleAdapterFromEnv({
      SCHEDULER_ENDPOINT: scheduler.endpoint,
      AWS_REGION: 'us-east-1',
      SCHEDULER_GROUP: 'tidewell-int',
      SCHEDULER_TARGET_ARN: TARGET_ARN,
      SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/scheduler-invoke',
      SCHEDULER_DLQ_ARN: 'arn:aws:sqs:us-east-1:000000000000:scheduler-dlq',
    });
    return new URL(scheduler.endpoint).port;
  }

  beforeAll(async () => {
    process.env.TIDEWELL_LOG = 'silent';
    dataDir = await mkdtemp(join(tmpdir(), 'tidewell-scheduler-'));
    await start();
  });

  afterAll(async () => {
    await scheduler?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('fires a schedule due in about two seconds into the target once, then deletes it', async () => {
    const name = scheduleName('int-probe', 'soon');
    // at() keeps whole seconds: due at least 1.5 s later, so the two creates and the read come first on a busy machine.
    const at = new Date(Date.now() + 2500);

    await adapter.createAt({ name, at, payload: { kind: 'int-probe', id: 'soon' } });
    // A retried create with the same deterministic name is a no-op, not an error.
    await adapter.createAt({ name, at, payload: { kind: 'int-probe', id: 'soon' } });

    const stored = await adapter.get(name);
    expect(stored).toEqual({ name, at: new Date(Math.floor(at.getTime() / 1000) * 1000), state: 'ENABLED' });

    await firedTimes('soon', 1);
    expect(fired.find((f) => f.id === 'soon')!.at).toBeGreaterThanOrEqual(Math.floor(at.getTime() / 1000) * 1000);
    expect(invocations).toContain(TARGET_ARN);
    // Deleted once its target returned: nothing is left to fire it a second time.
    await eventually(
      'the fired schedule deleted',
      () => adapter.get(name),
      (stored) => stored === null,
    );
    expect(firedCount('soon')).toBe(1);
    expect(await adapter.get(name)).toBeNull();
  });

  it('fires on the next start a schedule that fell due while the scheduler was stopped', async () => {
    const name = scheduleName('int-probe', 'while-stopped');
    const at = new Date(Date.now() + 1500);
    await adapter.createAt({ name, at, payload: { kind: 'int-probe', id: 'while-stopped' } });
    await scheduler.stop();

    // The subject is the clock: the schedule falls due (at() keeps whole seconds, so no later than `at`) while stopped.
    await untilTime(at.getTime());
    expect(firedCount('while-stopped')).toBe(0);

    await start();
    await firedTimes('while-stopped', 1);
    expect(await adapter.get(name)).toBeNull();
  });

  it('does not fire a deleted schedule', async () => {
    const name = scheduleName('int-probe', 'deleted');
    // at() keeps whole seconds: due at least 4 s later, so the create and delete both come first
    // even on a machine running at several times its cores.
    const at = new Date(Date.now() + 5000);
    await adapter.createAt({ name, at, payload: { kind: 'int-probe', id: 'deleted' } });
    await adapter.delete(name);
    await adapter.delete(name); // already gone: still fine

    // Past its time (whole seconds) and then three ticks, in which a schedule still there would have fired.
    await untilTime(Math.floor(at.getTime() / 1000) * 1000);
    await holdsFor(
      'the deleted schedule not firing',
      THREE_TICKS_MS,
      () => firedCount('deleted'),
      (n) => n === 0,
    );
    expect(await adapter.get(name)).toBeNull();
  });

  it('keeps a schedule whose target failed and retries it with backoff until it succeeds', async () => {
    const name = scheduleName('int-probe', 'flaky');
    failuresLeft.set('flaky', 2);
    await adapter.createAt({ name, at: new Date(Date.now() - 1000), payload: { kind: 'int-probe', id: 'flaky' } });

    await firedTimes('flaky', 1);
    expect(failuresLeft.get('flaky')).toBe(0);
    expect(await adapter.get(name)).toBeNull();
  });

  it('runs a recurring rate() schedule again and again, keeps it after each run, and can be made due now', async () => {
    const body = {
      ScheduleExpression: 'rate(1 minute)',
      ScheduleExpressionTimezone: 'UTC',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: TARGET_ARN, RoleArn: 'arn:aws:iam::000000000000:role/scheduler-invoke', Input: JSON.stringify({ kind: 'int-probe', id: 'recurring' }) },
    };
    await scheduler.ensure('tidewell-int', 'recurring-probe', body);
    await scheduler.ensure('tidewell-int', 'recurring-probe', body); // a second start changes nothing
    const described = async () =>
      (await (await fetch(`${scheduler.endpoint}/schedules/recurring-probe?groupName=tidewell-int`)).json()) as { ScheduleExpression: string };
    expect((await described()).ScheduleExpression).toBe('rate(1 minute)');
    // A recurring schedule first falls due a period after it is made, not at once.
    await holdsFor(
      'the new rate() schedule not firing yet',
      THREE_TICKS_MS,
      () => firedCount('recurring'),
      (n) => n === 0,
    );

    for (const expected of [1, 2]) {
      expect((await fetch(`${scheduler.endpoint}/local/schedules/recurring-probe/run?groupName=tidewell-int`, { method: 'POST' })).status).toBe(202);
      await firedTimes('recurring', expected);
      expect((await described()).ScheduleExpression).toBe('rate(1 minute)');
    }
    expect((await fetch(`${scheduler.endpoint}/local/schedules/nope/run?groupName=tidewell-int`, { method: 'POST' })).status).toBe(404);
    await holdsFor(
      'no third run of the recurring schedule',
      THREE_TICKS_MS,
      () => firedCount('recurring'),
      (n) => n === 2,
    );
  });
});
