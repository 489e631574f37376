import { describe, expect, it, vi } from 'vitest';
import { handler, unqualifiedArn, UnknownScheduledJobError } from './handler.js';
import { registeredKinds, registerScheduledJob } from './registry.js';

describe('schedule-target handler', () => {
  it('runs the job registered for the event kind with the whole payload', async () => {
    const job = vi.fn(async () => {});
    registerScheduledJob('unit-probe', job);

    await handler({ kind: 'unit-probe', reminderId: 'r1' });

    expect(job).toHaveBeenCalledWith({ kind: 'unit-probe', reminderId: 'r1' });
  });

  it('runs every kind the groups schedule, each registered once', () => {
    expect(registeredKinds()).toEqual(
      expect.arrayContaining([
        'reminder',
        'scheduled-sms',
        'appointment-reminder',
        'appointment-reminders-resync',
        'google-calendar-resync',
        'google-calendar-unlink',
        'syncPatientRx',
        'call-outcome-check',
        'lab-critical-escalation',
      ]),
    );
  });

  it('rejects an unknown or missing kind so Scheduler retries and dead-letters it', async () => {
    await expect(handler({ kind: 'no-such-kind' })).rejects.toBeInstanceOf(UnknownScheduledJobError);
    await expect(handler({})).rejects.toThrow('No scheduled job for kind (missing)');
  });

  it('refuses to register the same kind twice', () => {
    registerScheduledJob('unit-once', async () => {});
    expect(() => registerScheduledJob('unit-once', async () => {})).toThrow(/already registered/);
  });

  it('targets its own function, without the alias, when a job schedules its next run', () => {
    expect(unqualifiedArn('arn:aws:lambda:us-east-1:123456789012:function:tidewell-demo-target:live')).toBe(
      'arn:aws:lambda:us-east-1:123456789012:function:tidewell-demo-target',
    );
    expect(unqualifiedArn('arn:aws:lambda:us-east-1:123456789012:function:tidewell-demo-target')).toBe(
      'arn:aws:lambda:us-east-1:123456789012:function:tidewell-demo-target',
    );
  });
});
