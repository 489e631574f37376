import { afterAll, describe, expect, it } from 'vitest';
import { reminderScheduleName } from '../../functions/notifications/reminders/reminder-schedule.js';
import { eventually, untilTime } from '../support/eventually.js';
import { callApi as api, restartableRuntime, signInAs as signIn } from '../support/restartable-runtime.js';

/**
 * A reminder that falls due while the runtime is stopped fires once when it starts again: the
 * schedule, the reminder and the notification all live in the data folder, not in memory.
 * This file runs its own runtime (own folder, free port) so it can stop and start it.
 */
const runtime = restartableRuntime('tidewell-restart-');
afterAll(() => runtime.dispose());
const start = () => runtime.start();

describe('a reminder that falls due while the runtime is stopped', () => {
  it('fires exactly once, as one UNREAD notification for the assignee, after the next start', async () => {
    let rt = await start();
    const [provider, employee] = [await signIn(rt, 'provider@demo.tidewell.local'), await signIn(rt, 'employee@demo.tidewell.local')];
    const employeeId = (await api(rt, employee, 'GET', '/v1/practices/users/me')).body.userId as string;

    const dueAt = new Date(Date.now() + 4_000).toISOString();
    const created = await api(rt, provider, 'POST', '/v1/reminders', { text: 'Call the lab about the potassium result', dueAt, assigned: employeeId });
    expect(created.status).toBe(201);
    const reminderId = created.body.reminderId as string;
    const notificationsOf = async (token: string) =>
      (await api(rt, token, 'GET', `/v1/notifications?sourceId=${encodeURIComponent(reminderId)}&notificationType=TASK`)).body.notifications as Record<
        string,
        unknown
      >[];
    expect(await notificationsOf(employee)).toEqual([]);

    await runtime.stop();
    expect(Date.now()).toBeLessThan(Date.parse(dueAt));
    // The subject is the clock: the due time passes with nothing running.
    await untilTime(Date.parse(dueAt) + 1);

    rt = await start();
    const again = await signIn(rt, 'employee@demo.tidewell.local');
    const found = await eventually(
      'the late reminder notification',
      () => notificationsOf(again),
      (list) => list.length > 0,
      { within: 20_000 },
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ notificationStatus: 'UNREAD', assigned: employeeId, text: 'Call the lab about the potassium result' });

    // A late delivery is still one notification, and the reminder records that it fired. Its
    // one-time schedule is deleted once the delivery returned, so nothing can fire it again.
    const scheduleUrl = `${rt.endpoints.scheduler}/schedules/${reminderScheduleName(reminderId)}?groupName=${rt.endpoints.schedulerGroup}`;
    await eventually(
      'the reminder schedule gone after it fired',
      async () => (await fetch(scheduleUrl)).status,
      (status) => status === 404,
    );
    expect(await notificationsOf(again)).toHaveLength(1);
    const reminders = (await api(rt, again, 'GET', '/v1/reminders')).body.reminders as { reminderId: string; firedAt: string | null }[];
    expect(reminders.find((r) => r.reminderId === reminderId)?.firedAt).toEqual(expect.any(String));
  });
});
