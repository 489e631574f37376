import { describe, expect, it } from 'vitest';
import type { Notification } from '../../../../shared/notifications/notification-schema.js';
import { announcementFor } from './announce.js';

const base: Notification = {
  practiceId: 'p',
  sk: 's',
  notificationId: 'n',
  notificationVersion: 1,
  isLatestVersion: true,
  sourceId: null,
  relatedTo: null,
  notificationType: 'TASK',
  notificationStatus: 'UNREAD',
  assigned: 'me',
  previouslyAssigned: null,
  author: 'colleague',
  comments: null,
  text: 'Call back about labs',
  urgent: false,
  patientId: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  dueOn: null,
  lastUpdated: '2026-01-01T10:00:00.000Z',
  lastUpdatedBy: null,
  data: null,
};

describe('announcements', () => {
  it('announces a task a colleague assigned to me', () => {
    expect(announcementFor(base, 'created', 'me')).toEqual({ title: 'New task', description: 'Call back about labs' });
  });

  it('stays quiet about my own work, other people’s and what was caught up after a reconnect', () => {
    expect(announcementFor({ ...base, author: 'me' }, 'created', 'me')).toBeNull();
    expect(announcementFor({ ...base, assigned: 'someone' }, 'created', 'me')).toBeNull();
    expect(announcementFor(base, 'missed', 'me')).toBeNull();
    expect(announcementFor({ ...base, notificationStatus: 'READ' }, 'updated', 'me')).toBeNull();
  });

  it('announces my own reminder when it fires', () => {
    expect(announcementFor({ ...base, author: 'me', data: { kind: 'reminder' } }, 'created', 'me')).toEqual({
      title: 'Reminder',
      description: 'Call back about labs',
    });
  });
});
