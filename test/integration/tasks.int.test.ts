import { beforeAll, describe, expect, it } from 'vitest';
import { api, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';
import { subscribeNotifications } from './notifications-socket.js';

let provider: string;
let employee: string;
let providerId: string;
let employeeId: string;

beforeAll(async () => {
  [provider, employee] = await Promise.all([signIn('provider@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
  employeeId = (await api(employee, 'GET', '/v1/practices/users/me')).body.userId;
});

const taskNotifications = async (ident: string) =>
  (await api(provider, 'GET', `/v1/tasks/${ident}`)).status === 200
    ? (await api(provider, 'GET', `/v1/notifications?sourceId=${ident}&notificationType=TASK&notificationStatus=UNREAD,UPDATED,READ,COMPLETED,DELETED`)).body
        .notifications
    : [];

describe('tasks API', () => {
  it('creates a task read when kept by the creator, with no notification', async () => {
    const res = await api(provider, 'POST', '/v1/tasks', { text: 'Review the new lab panel', dueOn: '2030-01-15', urgent: true, patientId: 'pat-0002' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'READ',
      assigned: providerId,
      createdBy: providerId,
      urgent: true,
      dueOn: '2030-01-15',
      patientId: 'pat-0002',
      noteDataLinks: [],
    });
    expect(await taskNotifications(res.body.ident)).toEqual([]);
    const read = await api(employee, 'GET', `/v1/tasks/${res.body.ident}`);
    expect(read.body).toEqual(res.body);
  });

  it('refuses a task without text, an unknown assignee and an unknown task', async () => {
    const empty = await api(provider, 'POST', '/v1/tasks', { text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toEqual({ text: 'Task text is required' });
    const missing = await api(provider, 'POST', '/v1/tasks', {});
    expect(missing.body.fieldErrors.text).toBe('Task text is required');
    const stranger = await api(provider, 'POST', '/v1/tasks', { text: 'x', assigned: 'no-such-user' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toBe('The assigned user is not a member of this practice');
    const unknown = await api(provider, 'GET', '/v1/tasks/no-such-task');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Task not found');
  });

  it('assigns to someone else unread with a live TASK notification, follows edits, and locks a completed task', async () => {
    const { graphqlUrl } = stackOutputs();
    const feed = await subscribeNotifications(graphqlUrl, employee, stackEndpoints().practiceId);
    try {
      const created = await api(provider, 'POST', '/v1/tasks', {
        text: 'Call the patient about refills',
        assigned: employeeId,
        patientId: 'pat-0003',
        noteDataLinks: [{ interactionIdent: 'note-77' }],
      });
      expect(created.body).toMatchObject({ status: 'UNREAD', assigned: employeeId, noteDataLinks: [{ interactionIdent: 'note-77' }] });
      const ident = created.body.ident as string;
      const live = await feed.next('onCreateNotification', `task-${ident}`);
      expect(live.notification).toMatchObject({
        notificationType: 'TASK',
        notificationStatus: 'UNREAD',
        assigned: employeeId,
        sourceId: ident,
        text: 'Call the patient about refills',
      });

      const opened = await api(employee, 'PUT', `/v1/tasks/${ident}`, { status: 'READ' });
      expect(opened.body.status).toBe('READ');
      const edited = await api(provider, 'PUT', `/v1/tasks/${ident}`, {
        text: 'Call the patient about refills and labs',
        lastUpdated: opened.body.lastUpdated,
      });
      expect(edited.body.status).toBe('UPDATED');
      expect((await feed.next('onUpdateNotification', `task-${ident}`, 3)).notification).toMatchObject({ notificationStatus: 'UPDATED' });

      const stale = await api(employee, 'PUT', `/v1/tasks/${ident}`, { urgent: true, lastUpdated: opened.body.lastUpdated });
      expect(stale.status).toBe(409);

      const done = await api(employee, 'PUT', `/v1/tasks/${ident}`, { status: 'COMPLETED' });
      expect(done.body).toMatchObject({ status: 'COMPLETED', completedAt: expect.any(String) });
      const locked = await api(provider, 'PUT', `/v1/tasks/${ident}`, { text: 'Changed after the fact' });
      expect(locked.status).toBe(409);
      expect(locked.body.message).toBe('This task is completed and can no longer be changed');
      expect((await api(provider, 'GET', `/v1/tasks/${ident}`)).body.text).toBe('Call the patient about refills and labs');
      const [notification] = await taskNotifications(ident);
      expect(notification).toMatchObject({ notificationStatus: 'COMPLETED', notificationVersion: 4 });
    } finally {
      feed.close();
    }
  });

  it('reassigning hands the task over unread and tells the new assignee', async () => {
    const own = await api(employee, 'POST', '/v1/tasks', { text: 'Fax the referral' });
    expect(own.body.status).toBe('READ');
    const handed = await api(employee, 'PUT', `/v1/tasks/${own.body.ident}`, { assigned: providerId });
    expect(handed.body).toMatchObject({ status: 'UNREAD', assigned: providerId });
    expect(await taskNotifications(own.body.ident)).toEqual([expect.objectContaining({ assigned: providerId, notificationStatus: 'UNREAD' })]);
  });

  it('lists with status, assignee, keyword, patient, due-date range, sort and paging', async () => {
    const tag = `kw${Date.now()}`;
    const make = (text: string, dueOn: string | null, extra: Record<string, unknown> = {}) =>
      api(provider, 'POST', '/v1/tasks', { text: `${tag} ${text}`, dueOn, assigned: employeeId, ...extra }).then((r) => r.body.ident as string);
    const a = await make('alpha', '2031-03-01');
    const b = await make('bravo', '2031-01-01', { patientId: 'pat-0009' });
    const c = await make('charlie', null);
    const list = async (qs: string) => (await api(provider, 'GET', `/v1/tasks?keyword=${tag}&${qs}`)).body;

    const byDue = await list('sort=dueOn&order=asc');
    expect(byDue.tasks.map((t: { ident: string }) => t.ident)).toEqual([b, a, c]);
    expect(byDue).toMatchObject({ total: 3, limit: 25, offset: 0 });
    expect((await list('sort=dueOn&order=asc&limit=1&offset=1')).tasks.map((t: { ident: string }) => t.ident)).toEqual([a]);
    expect((await list('patientId=pat-0009')).tasks.map((t: { ident: string }) => t.ident)).toEqual([b]);
    expect((await list('fromDueDate=2031-02-01&toDueDate=2031-12-31')).tasks.map((t: { ident: string }) => t.ident)).toEqual([a]);
    expect((await api(provider, 'GET', `/v1/tasks?keyword=${tag}%20BRAVO`)).body.total).toBe(1);
    await api(employee, 'PUT', `/v1/tasks/${c}`, { status: 'COMPLETED' });
    expect((await list('status=COMPLETED')).tasks.map((t: { ident: string }) => t.ident)).toEqual([c]);
    expect((await list('status=UNREAD%20UPDATED')).total).toBe(2);

    const badge = await api(employee, 'GET', `/v1/tasks?assigned=${employeeId}&status=UNREAD,UPDATED&limit=1`);
    expect(badge.body.tasks).toHaveLength(1);
    expect(badge.body.total).toBeGreaterThanOrEqual(2);
    expect((await api(employee, 'GET', '/v1/tasks?assigned=me&status=UNREAD,UPDATED&limit=1')).body.total).toBe(badge.body.total);
    const bad = await api(provider, 'GET', '/v1/tasks?status=OPEN');
    expect(bad.status).toBe(400);
  });
});
