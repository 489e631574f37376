import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';
import { subscribeNotifications } from './notifications-socket.js';

const OTHER_PRACTICE = 'prc_other_notifications';
let provider: string;
let employee: string;

beforeAll(async () => {
  [provider, employee] = await Promise.all([signIn('provider@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
});

const unique = (s: string) => `${s}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

describe('notifications API', () => {
  it('keeps versions, refuses a stale update and answers each filter of the spec', async () => {
    const noteId = unique('note');
    const relatedTo = unique('user');
    const created = await api(provider, 'POST', '/v1/notifications', {
      notificationType: 'DRAFT',
      sourceId: noteId,
      relatedTo,
      patientId: 'pat-0001',
      data: { noteId, patientId: 'pat-0001' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ notificationVersion: 1, isLatestVersion: true, notificationStatus: 'UNREAD', notificationType: 'DRAFT' });
    const id = created.body.notificationId as string;

    const updated = await api(employee, 'PUT', `/v1/notifications/${id}`, { notificationStatus: 'UPDATED', text: 'Saved again', notificationVersion: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ notificationVersion: 2, notificationStatus: 'UPDATED', text: 'Saved again', createdAt: created.body.createdAt });

    const stale = await api(provider, 'PUT', `/v1/notifications/${id}`, { notificationStatus: 'READ', notificationVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('This notification was changed by someone else. Reload it and try again.');

    const byId = await api(provider, 'GET', `/v1/notifications?notificationId=${id}`);
    expect(byId.body.notifications).toEqual([
      expect.objectContaining({ notificationId: id, notificationVersion: 2, isLatestVersion: true, notificationStatus: 'UPDATED' }),
    ]);
    const bySource = await api(provider, 'GET', `/v1/notifications?sourceId=${noteId}&notificationType=DRAFT`);
    expect(bySource.body.notifications.map((n: { notificationId: string }) => n.notificationId)).toEqual([id]);
    const byRelated = await api(provider, 'GET', `/v1/notifications?notificationType=DRAFT&relatedTo=${relatedTo}`);
    expect(byRelated.body.notifications.map((n: { notificationVersion: number }) => n.notificationVersion)).toEqual([2]);

    const removed = await api(provider, 'DELETE', `/v1/notifications/${id}`);
    expect(removed.body).toMatchObject({ notificationVersion: 3, notificationStatus: 'DELETED' });
    expect((await api(provider, 'GET', `/v1/notifications?notificationType=DRAFT&relatedTo=${relatedTo}`)).body.notifications).toEqual([]);
    expect((await api(provider, 'GET', `/v1/notifications?notificationId=${id}&notificationStatus=DELETED`)).body.notifications).toHaveLength(1);
  });

  it('lists type and status filters merged updated, then unread, then read, and counts unread', async () => {
    const tag = unique('lab');
    const make = async (status: string) =>
      (await api(provider, 'POST', '/v1/notifications', { notificationType: 'LAB_RESULTS', notificationStatus: status, text: tag })).body
        .notificationId as string;
    const before = (await api(provider, 'GET', '/v1/notifications/unread-count')).body;
    const read = await make('READ');
    const unread = await make('UNREAD');
    const upd = await make('UPDATED');
    const list = await api(provider, 'GET', '/v1/notifications?notificationType=LAB_RESULTS&notificationStatus=READ,UNREAD,UPDATED&limit=500');
    const ours = list.body.notifications.filter((n: { text: string }) => n.text === tag).map((n: { notificationId: string }) => n.notificationId);
    expect(ours).toEqual([upd, unread, read]);
    const after = (await api(provider, 'GET', '/v1/notifications/unread-count')).body;
    expect(after.byType.LAB_RESULTS - before.byType.LAB_RESULTS).toBe(2);
    expect(after.count - before.count).toBe(2);
    const bad = await api(provider, 'GET', '/v1/notifications?notificationType=MEMO');
    expect(bad.status).toBe(400);
  });

  it('marks an SMS conversation read, archives it (COMPLETED) and unarchives it (READ)', async () => {
    const from = `+1555${String(Date.now()).slice(-7)}`;
    const to = '+15550000001';
    const ids: string[] = [];
    for (const [a, b] of [
      [from, to],
      [to, from],
    ]) {
      ids.push(
        (await api(employee, 'POST', '/v1/notifications', { notificationType: 'SMS', data: { from: a, to: b, timestamp: new Date().toISOString() } })).body
          .notificationId,
      );
    }
    const status = async () =>
      Promise.all(
        ids.map(
          async (id) =>
            (await api(employee, 'GET', `/v1/notifications?notificationId=${id}&notificationStatus=UNREAD,UPDATED,READ,COMPLETED`)).body.notifications[0]
              .notificationStatus,
        ),
      );
    expect((await api(employee, 'PUT', '/v1/notifications/mark-conversation-read', { from, to })).body).toEqual({ updated: 2 });
    expect(await status()).toEqual(['READ', 'READ']);
    expect((await api(employee, 'PUT', '/v1/notifications/archive-conversation', { from, to })).body).toEqual({ updated: 2 });
    expect(await status()).toEqual(['COMPLETED', 'COMPLETED']);
    expect((await api(employee, 'PUT', '/v1/notifications/unarchive-conversation', { from, to })).body).toEqual({ updated: 2 });
    expect(await status()).toEqual(['READ', 'READ']);
    expect((await api(employee, 'PUT', '/v1/notifications/archive-conversation', { from })).status).toBe(400);
  });
});

describe('live notifications', () => {
  it('reaches a subscriber of the same practice on create and update; another practice cannot subscribe', async () => {
    const { graphqlUrl } = stackOutputs();
    const { practiceId } = stackEndpoints();
    const otherToken = await createTestUser({ email: 'notif-other@other.tidewell.local', group: 'provider', practiceId: OTHER_PRACTICE });
    // This practice's realtime endpoint refuses another practice's user outright (the API's access rule).
    await expect(subscribeNotifications(graphqlUrl, otherToken, OTHER_PRACTICE)).rejects.toThrow(/UnauthorizedException/);
    const mine = await subscribeNotifications(graphqlUrl, employee, practiceId);
    try {
      const created = await api(provider, 'POST', '/v1/notifications', { notificationType: 'PHONE_CALL', text: 'Voicemail from a patient' });
      const id = created.body.notificationId as string;
      const live = await mine.next('onCreateNotification', id);
      expect(live.notification).toMatchObject({ practiceId, notificationType: 'PHONE_CALL', notificationStatus: 'UNREAD', notificationVersion: 1 });
      await api(provider, 'PUT', `/v1/notifications/${id}`, { notificationStatus: 'READ' });
      const update = await mine.next('onUpdateNotification', id, 2);
      expect(update.notification).toMatchObject({ notificationStatus: 'READ', isLatestVersion: true });
    } finally {
      mine.close();
    }
  });

  it('lets a browser that missed events catch up with the latest versions changed since it left', async () => {
    const left = new Date().toISOString();
    const a = (await api(provider, 'POST', '/v1/notifications', { notificationType: 'FAX', text: 'Referral fax' })).body.notificationId as string;
    const b = (await api(provider, 'POST', '/v1/notifications', { notificationType: 'FORM', text: 'Intake form' })).body.notificationId as string;
    await api(provider, 'PUT', `/v1/notifications/${a}`, { notificationStatus: 'READ' });
    const caught = await api(employee, 'GET', `/v1/notifications?since=${encodeURIComponent(left)}`);
    expect(caught.status).toBe(200);
    const found = caught.body.notifications.filter((n: { notificationId: string }) => [a, b].includes(n.notificationId));
    expect(found.map((n: { notificationId: string; notificationVersion: number }) => [n.notificationId, n.notificationVersion]).sort()).toEqual(
      [
        [a, 2],
        [b, 1],
      ].sort(),
    );
    const later = await api(employee, 'GET', `/v1/notifications?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(later.body.notifications).toEqual([]);
  });
});
