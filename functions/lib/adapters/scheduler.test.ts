import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventBridgeScheduleAdapter, scheduleName } from './scheduler.js';

const schedulerMock = mockClient(SchedulerClient);

function anAdapter() {
  return new EventBridgeScheduleAdapter({
    client: new SchedulerClient({ region: 'us-east-1' }),
    groupName: 'tidewell-demo',
    targetArn: 'arn:aws:lambda:us-east-1:123456789012:function:schedule-target',
    roleArn: 'arn:aws:iam::123456789012:role/scheduler-invoke',
    deadLetterArn: 'arn:aws:sqs:us-east-1:123456789012:scheduler-dlq',
  });
}

describe('EventBridgeScheduleAdapter', () => {
  beforeEach(() => schedulerMock.reset());

  it('creates a one-time at() schedule in UTC that deletes itself after it fires', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:us-east-1:123456789012:schedule/tidewell-demo/reminder.r1' });

    await anAdapter().createAt({ name: 'reminder.r1', at: new Date('2025-06-01T14:30:05.750Z'), payload: { kind: 'reminder', reminderId: 'r1' } });

    const calls = schedulerMock.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      Name: 'reminder.r1',
      GroupName: 'tidewell-demo',
      ScheduleExpression: 'at(2025-06-01T14:30:05)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      State: 'ENABLED',
      Target: {
        Arn: 'arn:aws:lambda:us-east-1:123456789012:function:schedule-target',
        RoleArn: 'arn:aws:iam::123456789012:role/scheduler-invoke',
        Input: '{"kind":"reminder","reminderId":"r1"}',
        RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 },
        DeadLetterConfig: { Arn: 'arn:aws:sqs:us-east-1:123456789012:scheduler-dlq' },
      },
    });
  });

  it('treats a ConflictException on create as already created', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'Schedule reminder.r1 already exists.', Message: 'Schedule reminder.r1 already exists.', $metadata: {} }));
    await expect(anAdapter().createAt({ name: 'reminder.r1', at: new Date(), payload: {} })).resolves.toBeUndefined();
  });

  it('propagates other create failures', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new Error('throttled'));
    await expect(anAdapter().createAt({ name: 'reminder.r1', at: new Date(), payload: {} })).rejects.toThrow('throttled');
  });

  it('deletes by name in the group and ignores a schedule that is already gone', async () => {
    schedulerMock.on(DeleteScheduleCommand).rejectsOnce(new ResourceNotFoundException({ message: 'Schedule reminder.r1 does not exist.', Message: 'Schedule reminder.r1 does not exist.', $metadata: {} }));
    await anAdapter().delete('reminder.r1');
    expect(schedulerMock.commandCalls(DeleteScheduleCommand)[0].args[0].input).toEqual({ Name: 'reminder.r1', GroupName: 'tidewell-demo' });
  });

  it('reads a schedule back as name, at and state, or null when missing', async () => {
    schedulerMock
      .on(GetScheduleCommand, { Name: 'reminder.r1', GroupName: 'tidewell-demo' })
      .resolves({ Name: 'reminder.r1', ScheduleExpression: 'at(2025-06-01T14:30:05)', State: 'ENABLED' })
      .on(GetScheduleCommand, { Name: 'reminder.gone', GroupName: 'tidewell-demo' })
      .rejects(new ResourceNotFoundException({ message: 'Schedule reminder.gone does not exist.', Message: 'Schedule reminder.gone does not exist.', $metadata: {} }));

    expect(await anAdapter().get('reminder.r1')).toEqual({ name: 'reminder.r1', at: new Date('2025-06-01T14:30:05Z'), state: 'ENABLED' });
    expect(await anAdapter().get('reminder.gone')).toBeNull();
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
