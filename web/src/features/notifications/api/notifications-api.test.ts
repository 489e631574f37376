import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../../../../shared/notifications/notification-schema.js';
import { catchUpNotifications, communicationUnread, notificationKeys, placeNotifications } from './notifications-api.js';

let answer: unknown;
vi.mock('../../../lib/api-client.js', () => ({ apiRequest: async () => answer }));

function aNotification(overrides: Partial<Notification>): Notification {
  return {
    practiceId: 'prc_demo',
    sk: 'x',
    notificationId: 'n-1',
    notificationVersion: 1,
    isLatestVersion: true,
    sourceId: null,
    relatedTo: null,
    notificationType: 'SMS',
    notificationStatus: 'UNREAD',
    assigned: null,
    previouslyAssigned: null,
    author: null,
    comments: null,
    text: 'hello',
    urgent: false,
    patientId: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    dueOn: null,
    lastUpdated: '2026-01-01T10:00:00.000Z',
    lastUpdatedBy: null,
    data: null,
    ...overrides,
  };
}

describe('notification stores', () => {
  it('merges a live update over the older version and keeps updated before unread before read', () => {
    const client = new QueryClient();
    client.setQueryData(notificationKeys.store('SMS'), [
      aNotification({ notificationId: 'a', notificationStatus: 'READ' }),
      aNotification({ notificationId: 'b', notificationStatus: 'UNREAD' }),
    ]);
    placeNotifications(client, [aNotification({ notificationId: 'a', notificationVersion: 2, notificationStatus: 'UPDATED', text: 'edited' })]);
    const store = client.getQueryData<Notification[]>(notificationKeys.store('SMS')) ?? [];
    expect(store.map((n) => [n.notificationId, n.notificationStatus])).toEqual([
      ['a', 'UPDATED'],
      ['b', 'UNREAD'],
    ]);
    expect(store[0].text).toBe('edited');
  });

  it('drops a notification from its store once it is completed', () => {
    const client = new QueryClient();
    client.setQueryData(notificationKeys.store('FAX'), [aNotification({ notificationId: 'f', notificationType: 'FAX' })]);
    placeNotifications(client, [aNotification({ notificationId: 'f', notificationType: 'FAX', notificationVersion: 2, notificationStatus: 'COMPLETED' })]);
    expect(client.getQueryData(notificationKeys.store('FAX'))).toEqual([]);
  });

  it('counts calls, SMS and faxes for the Communication badge, not drafts or tasks', () => {
    expect(communicationUnread({ count: 9, assignedToMe: 0, byType: { PHONE_CALL: 2, SMS: 3, FAX: 1, DRAFT: 4, TASK: 5 } as never })).toBe(6);
    expect(communicationUnread(undefined)).toBe(0);
    // The polled calls count stands for the calls, read notifications or not.
    expect(communicationUnread({ count: 9, assignedToMe: 0, byType: { PHONE_CALL: 2, SMS: 3, FAX: 1 } as never }, 5)).toBe(9);
    expect(communicationUnread(undefined, 4)).toBe(4);
  });
});

describe('the catch-up after a reconnect', () => {
  it('places what was missed into the stores when the answer holds every change', async () => {
    const client = new QueryClient();
    client.setQueryData(notificationKeys.store('SMS'), [aNotification({ notificationId: 'a' })]);
    answer = { notifications: [aNotification({ notificationId: 'b' })], complete: true };
    await catchUpNotifications(client, '2026-01-01T09:00:00.000Z');
    expect(
      client
        .getQueryData<Notification[]>(notificationKeys.store('SMS'))
        ?.map((n) => n.notificationId)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(client.getQueryState(notificationKeys.store('SMS'))?.isInvalidated).toBe(false);
  });

  it('reloads the lists when more changed than one answer holds', async () => {
    const client = new QueryClient();
    client.setQueryData(notificationKeys.store('FAX'), [aNotification({ notificationId: 'a', notificationType: 'FAX' })]);
    answer = { notifications: [aNotification({ notificationId: 'b' })], complete: false };
    await catchUpNotifications(client, '2026-01-01T09:00:00.000Z');
    expect(client.getQueryState(notificationKeys.store('FAX'))?.isInvalidated).toBe(true);
  });
});
