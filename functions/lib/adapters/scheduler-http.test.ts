import { afterEach, describe, expect, it, vi } from 'vitest';
import { SchedulerApiError, SchedulerHttpAdapter } from './scheduler-http.js';

const options = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
  groupName: 'tidewell-demo',
  targetArn: 'arn:aws:lambda:us-east-1:111122223333:function:target',
  roleArn: 'arn:aws:iam::111122223333:role/invoke',
  deadLetterArn: 'arn:aws:sqs:us-east-1:111122223333:dlq',
};
const answer = (status: number, body: unknown = {}, errorType?: string) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-ErrorType': errorType } : {}) } });

afterEach(() => vi.unstubAllGlobals());

describe('Scheduler over its REST API', () => {
  it('creates a signed one-time schedule in the group, firing the target with the payload, and treats an existing one as made', async () => {
    const fetchMock = vi.fn(async () => answer(200, { ScheduleArn: 'arn' }));
    vi.stubGlobal('fetch', fetchMock);
    const adapter = new SchedulerHttpAdapter(options);
    await adapter.createAt({ name: 'appointment-reminder.a1.2027-03-03', at: new Date('2027-03-02T15:00:00.000Z'), payload: { kind: 'appointment-reminder', appointmentId: 'a1' } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit & { headers: Record<string, string> }];
    expect(String(url)).toBe('https://scheduler.us-east-1.amazonaws.com/schedules/appointment-reminder.a1.2027-03-03');
    expect(init.method).toBe('POST');
    expect(init.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/scheduler\/aws4_request/);
    expect(JSON.parse(String(init.body))).toEqual({
      GroupName: 'tidewell-demo',
      ScheduleExpression: 'at(2027-03-02T15:00:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      State: 'ENABLED',
      Target: {
        Arn: options.targetArn,
        RoleArn: options.roleArn,
        Input: JSON.stringify({ kind: 'appointment-reminder', appointmentId: 'a1' }),
        RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 },
        DeadLetterConfig: { Arn: options.deadLetterArn },
      },
    });

    fetchMock.mockResolvedValueOnce(answer(409, { Message: 'exists' }, 'ConflictException:http://internal.amazon.com/'));
    await expect(adapter.createAt({ name: 'x', at: new Date(), payload: {} })).resolves.toBeUndefined();
    fetchMock.mockResolvedValueOnce(answer(403, { Message: 'denied' }, 'AccessDeniedException'));
    await expect(adapter.createAt({ name: 'x', at: new Date(), payload: {} })).rejects.toBeInstanceOf(SchedulerApiError);
  });

  it('reads and deletes a schedule by name in the group; a missing one reads as null and deletes as done', async () => {
    const fetchMock = vi.fn(async () => answer(200, { Name: 'n1', ScheduleExpression: 'at(2027-03-02T15:00:00)', State: 'ENABLED' }));
    vi.stubGlobal('fetch', fetchMock);
    const adapter = new SchedulerHttpAdapter(options);
    expect(await adapter.get('n1')).toEqual({ name: 'n1', at: new Date('2027-03-02T15:00:00.000Z'), state: 'ENABLED' });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit];
    expect(String(url)).toBe('https://scheduler.us-east-1.amazonaws.com/schedules/n1?groupName=tidewell-demo');
    expect(init.method).toBe('GET');

    fetchMock.mockImplementation(async () => answer(404, { Message: 'none' }, 'ResourceNotFoundException'));
    expect(await adapter.get('gone')).toBeNull();
    await expect(adapter.delete('gone')).resolves.toBeUndefined();
    expect((fetchMock.mock.calls.at(-1) as unknown as [URL, RequestInit])[1].method).toBe('DELETE');
  });
});
