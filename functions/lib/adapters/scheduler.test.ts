import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectSameOperation, recordingFetch, recordingHandler, SIGNING_TIME, TEST_CREDENTIALS, type CannedAnswer } from '../../../test/support/aws-wire.js';
import { EventBridgeScheduleAdapter, SchedulerApiError, scheduleName } from './scheduler.js';

const options = {
  groupName: 'tidewell-demo',
  targetArn: 'arn:aws:lambda:us-east-1:123456789012:function:schedule-target',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler-invoke',
  deadLetterArn: 'arn:aws:sqs:us-east-1:123456789012:scheduler-dlq',
};
const HEADERS = ['content-type', 'host'];

function pair(canned: CannedAnswer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }, endpoint?: string) {
  const lite = recordingFetch(canned);
  const sdk = recordingHandler(canned);
  return {
    lite,
    sdk,
    adapter: new EventBridgeScheduleAdapter({
      ...options,
      region: 'us-east-1',
      credentials: TEST_CREDENTIALS,
      fetch: lite.fetch,
      ...(endpoint ? { endpoint } : {}),
    }),
    client: new SchedulerClient({
      region: 'us-east-1',
      credentials: TEST_CREDENTIALS,
      requestHandler: sdk.requestHandler,
      maxAttempts: 1,
      ...(endpoint ? { endpoint } : {}),
    }),
  };
}

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: SIGNING_TIME }));
afterEach(() => vi.useRealTimers());

describe('Scheduler calls, as @aws-sdk/client-scheduler sends them', () => {
  for (const endpoint of [undefined, 'http://127.0.0.1:4601']) {
    const where = endpoint ? 'the local scheduler' : 'AWS';
    it(`CreateSchedule: a one-time at() schedule in UTC, in the group, that deletes itself after it fires (${where})`, async () => {
      const { lite, sdk, adapter, client } = pair({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ScheduleArn":"arn"}' }, endpoint);
      await adapter.createAt({ name: 'reminder.r1', at: new Date('2025-06-01T14:30:05.750Z'), payload: { kind: 'reminder', reminderId: 'r1' } });
      const sent = JSON.parse(lite.requests[0]!.body.toString('utf8')) as { ClientToken: string };
      await client.send(
        new CreateScheduleCommand({
          Name: 'reminder.r1',
          GroupName: 'tidewell-demo',
          ScheduleExpression: 'at(2025-06-01T14:30:05)',
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          State: 'ENABLED',
          Target: {
            Arn: options.targetArn,
            RoleArn: options.roleArn,
            Input: '{"kind":"reminder","reminderId":"r1"}',
            RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 },
            DeadLetterConfig: { Arn: options.deadLetterArn },
          },
          // The SDK fills the idempotency token when it is left out; the adapter makes its own.
          ClientToken: sent.ClientToken,
        }),
      );
      expect(sent.ClientToken).toMatch(/^[0-9a-f-]{36}$/);
      expectSameOperation(lite.requests[0]!, sdk.requests[0]!, { headers: HEADERS, service: 'scheduler', json: true });
    });

    it(`GetSchedule and DeleteSchedule: by name in the group (${where})`, async () => {
      const { lite, sdk, adapter, client } = pair(
        {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ Name: 'reminder.r1', GroupName: 'tidewell-demo', ScheduleExpression: 'at(2025-06-01T14:30:05)', State: 'ENABLED' }),
        },
        endpoint,
      );
      const got = await adapter.get('reminder.r1');
      const out = await client.send(new GetScheduleCommand({ Name: 'reminder.r1', GroupName: 'tidewell-demo' }));
      expectSameOperation(lite.requests[0]!, sdk.requests[0]!, { headers: HEADERS, service: 'scheduler' });
      expect(got).toEqual({ name: out.Name, at: new Date('2025-06-01T14:30:05Z'), state: out.State });

      await adapter.delete('reminder.r1');
      const clientToken = lite.requests[1]!.query.clientToken;
      await client.send(new DeleteScheduleCommand({ Name: 'reminder.r1', GroupName: 'tidewell-demo', ClientToken: clientToken }));
      expect(clientToken).toMatch(/^[0-9a-f-]{36}$/);
      expectSameOperation(lite.requests[1]!, sdk.requests[1]!, { headers: HEADERS, service: 'scheduler' });
    });
  }

  it('reads the errors the SDK reads: a conflict on create is done, a missing schedule reads as null and deletes as done, others throw', async () => {
    const conflict = {
      status: 409,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ConflictException:http://internal.amazon.com/coral/com.amazonaws.chronos/' },
      body: '{"Message":"Schedule reminder.r1 already exists."}',
    };
    let c = pair(conflict);
    await expect(
      c.client.send(
        new CreateScheduleCommand({
          Name: 'x',
          ScheduleExpression: 'at(2025-06-01T14:30:05)',
          FlexibleTimeWindow: { Mode: 'OFF' },
          Target: { Arn: 'a', RoleArn: 'r' },
        }),
      ),
    ).rejects.toBeInstanceOf(ConflictException);
    await expect(c.adapter.createAt({ name: 'x', at: new Date(), payload: {} })).resolves.toBeUndefined();

    const missing = {
      status: 404,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' },
      body: '{"Message":"Schedule reminder.gone does not exist."}',
    };
    c = pair(missing);
    await expect(c.client.send(new GetScheduleCommand({ Name: 'reminder.gone' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(await c.adapter.get('reminder.gone')).toBeNull();
    await expect(c.adapter.delete('reminder.gone')).resolves.toBeUndefined();

    c = pair({
      status: 400,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ValidationException' },
      body: '{"Message":"Invalid Schedule Expression"}',
    });
    await expect(c.adapter.createAt({ name: 'x', at: new Date(), payload: {} })).rejects.toEqual(new SchedulerApiError(400, 'ValidationException'));
  });
});

describe('scheduleName', () => {
  it('is deterministic, readable for short ids, and within the Scheduler name rules', () => {
    expect(scheduleName('reminder', 'r1')).toBe('reminder.r1');
    const long = scheduleName('scheduled-send', 'PATIENT#0f8a3c0e-1111-4b5b-9c9c-aaaaaaaaaaaa#EVENT#2025-06-01T14:30:00Z');
    expect(long).toBe(scheduleName('scheduled-send', 'PATIENT#0f8a3c0e-1111-4b5b-9c9c-aaaaaaaaaaaa#EVENT#2025-06-01T14:30:00Z'));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^[0-9a-zA-Z\-_.]+$/);
    expect(long.startsWith('scheduled-send.PATIENT-')).toBe(true);
  });

  it('keeps ids apart that differ only in characters Scheduler does not allow', () => {
    expect(scheduleName('send', 'a#b')).not.toBe(scheduleName('send', 'a/b'));
    expect(scheduleName('send', 'a#b')).not.toBe(scheduleName('send', 'a-b'));
  });
});
