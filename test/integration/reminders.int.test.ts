import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleAdapterFromEnv } from '../../functions/lib/adapters/scheduler.js';
import { resetDocumentClient } from '../../functions/lib/table/client.js';
import { reminderScheduleName } from '../../functions/notifications/reminders/reminder-schedule.js';
import { handler as scheduleTarget } from '../../functions/workers/schedule-target/handler.js';
import { localLambdaArn } from '../../infra/local/stepfunctions/local-lambdas.js';
import { api, signIn, stackEndpoints, stackOutputs, tableClient } from '../support/local-stack.js';
import { eventually, eventuallyFound, holdsFor } from '../support/eventually.js';
import { subscribeNotifications } from './notifications-socket.js';

let provider: string;
let employee: string;
let employeeId: string;

beforeAll(async () => {
  [provider, employee] = await Promise.all([signIn('provider@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
  employeeId = (await api(employee, 'GET', '/v1/practices/users/me')).body.userId;
});

const schedules = () =>
  scheduleAdapterFromEnv({
    SCHEDULER_ENDPOINT: stackEndpoints().scheduler,
    SCHEDULER_GROUP: stackEndpoints().schedulerGroup,
    SCHEDULER_TARGET_ARN: localLambdaArn('schedule-target'),
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/local',
    AWS_REGION: stackOutputs().region,
  });

const reminderNotifications = async (token: string, reminderId: string) =>
  (await api(token, 'GET', `/v1/notifications?sourceId=${reminderId}&notificationType=TASK`)).body.notifications as Record<string, unknown>[];

describe('reminders', () => {
  it('fires once through the runtime scheduler: an UNREAD notification for the assignee, live', async () => {
    const feed = await subscribeNotifications(stackOutputs().graphqlUrl, employee, stackEndpoints().practiceId);
    try {
      const dueAt = new Date(Date.now() + 5000).toISOString();
      const created = await api(provider, 'POST', '/v1/reminders', { text: 'Check on the INR result', dueAt, assigned: employeeId, patientId: 'pat-0004' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ text: 'Check on the INR result', dueAt, assigned: employeeId, completionDate: null, firedAt: null });
      const reminderId = created.body.reminderId as string;
      expect(await schedules().get(reminderScheduleName(reminderId))).toMatchObject({ at: new Date(dueAt.slice(0, 19) + 'Z') });

      const [notification] = await eventuallyFound('the reminder notification', async () => {
        const found = await reminderNotifications(employee, reminderId);
        return found.length ? found : undefined;
      });
      expect(notification).toMatchObject({ notificationStatus: 'UNREAD', assigned: employeeId, text: 'Check on the INR result', patientId: 'pat-0004' });
      expect((await feed.next('onCreateNotification', notification.notificationId as string)).notification).toMatchObject({ assigned: employeeId });
      // Deleted once its delivery returned: nothing is left to fire it a second time.
      await eventually(
        'the reminder schedule gone after it fired',
        () => schedules().get(reminderScheduleName(reminderId)),
        (stored) => stored === null,
      );
      expect(await reminderNotifications(employee, reminderId)).toHaveLength(1);
      expect(feed.received.filter((r) => r.notification.sourceId === reminderId)).toHaveLength(1);
      const mine = await api(employee, 'GET', '/v1/reminders');
      expect(mine.body.reminders.find((r: { reminderId: string }) => r.reminderId === reminderId)).toMatchObject({ firedAt: expect.any(String) });
      expect(await schedules().get(reminderScheduleName(reminderId))).toBeNull();
    } finally {
      feed.close();
    }
  });

  it('creates one notification when the target is delivered twice', async () => {
    const { dynamodb, tableName, practiceId, realtimePublisherSecret } = stackEndpoints();
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: dynamodb,
      TABLE_NAME: tableName,
      PRACTICE_ID: practiceId,
      APPSYNC_URL: stackOutputs().graphqlUrl,
      APPSYNC_LOCAL_SECRET: realtimePublisherSecret,
      AWS_REGION: stackOutputs().region,
      TIDEWELL_LOG: 'silent',
    });
    resetDocumentClient();
    const reminderId = `twice-${Date.now()}`;
    const at = new Date(Date.now() - 1000).toISOString();
    await tableClient().client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          practiceId,
          sk: `REMINDER#${reminderId}`,
          entityType: 'REMINDER',
          gsi1pk: `REMINDERS#${employeeId}`,
          gsi1sk: `${at}#${reminderId}`,
          reminderId,
          text: 'Delivered twice',
          dueAt: at,
          assigned: employeeId,
          patientId: null,
          completionDate: null,
          firedAt: null,
          createdAt: at,
          createdBy: employeeId,
          lastUpdated: at,
        },
      }),
    );
    const feed = await subscribeNotifications(stackOutputs().graphqlUrl, employee, practiceId);
    try {
      const payload = { kind: 'reminder', practiceId, reminderId };
      await Promise.all([scheduleTarget(payload), scheduleTarget(payload)]);
      await scheduleTarget(payload);
      const [notification] = await reminderNotifications(employee, reminderId);
      expect(notification).toMatchObject({ notificationVersion: 1, notificationStatus: 'UNREAD', text: 'Delivered twice' });
      await feed.next('onCreateNotification', notification.notificationId as string);
      // All three deliveries have returned; a second live event would follow the first within milliseconds.
      await holdsFor(
        'one live notification for the reminder',
        300,
        () => feed.received.filter((r) => r.notification.sourceId === reminderId).length,
        (n) => n === 1,
        { every: 50 },
      );
      expect(feed.received.filter((r) => r.notification.sourceId === reminderId)).toHaveLength(1);
      expect(await reminderNotifications(employee, reminderId)).toHaveLength(1);
    } finally {
      feed.close();
    }
  });

  it('completing or deleting a reminder deletes its schedule; open=true lists only open ones', async () => {
    const dueAt = new Date(Date.now() + 3600_000).toISOString();
    const a = (await api(employee, 'POST', '/v1/reminders', { text: 'Renew the DEA license', dueAt })).body;
    const b = (await api(employee, 'POST', '/v1/reminders', { text: 'Order flu vaccines', dueAt })).body;
    expect(a.assigned).toBe(employeeId);
    expect(await schedules().get(reminderScheduleName(a.reminderId))).not.toBeNull();

    const done = await api(employee, 'PUT', `/v1/reminders/${a.reminderId}`, { completed: true });
    expect(done.body.completionDate).toEqual(expect.any(String));
    expect(await schedules().get(reminderScheduleName(a.reminderId))).toBeNull();
    const open = (await api(employee, 'GET', '/v1/reminders?open=true')).body.reminders.map((r: { reminderId: string }) => r.reminderId);
    expect(open).toContain(b.reminderId);
    expect(open).not.toContain(a.reminderId);
    const all = (await api(employee, 'GET', '/v1/reminders')).body.reminders.map((r: { reminderId: string }) => r.reminderId);
    expect(all).toContain(a.reminderId);
    expect((await api(employee, 'PUT', `/v1/reminders/${a.reminderId}`, { text: 'again' })).status).toBe(409);

    expect((await api(employee, 'DELETE', `/v1/reminders/${b.reminderId}`)).status).toBe(200);
    expect(await schedules().get(reminderScheduleName(b.reminderId))).toBeNull();
    expect((await api(employee, 'PUT', `/v1/reminders/${b.reminderId}`, { completed: true })).status).toBe(404);
  });

  it('refuses a reminder without text or in the past', async () => {
    const past = await api(employee, 'POST', '/v1/reminders', { text: 'Late', dueAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe('Reminder time must be in the future');
    const blank = await api(employee, 'POST', '/v1/reminders', { text: '', dueAt: new Date(Date.now() + 60_000).toISOString() });
    expect(blank.body.fieldErrors).toEqual({ text: 'Reminder text is required' });
    expect((await api(employee, 'POST', '/v1/reminders', { text: 'x' })).body.fieldErrors).toEqual({ dueAt: 'Reminder time is required' });
  });
});
