import { describe, expect, it } from 'vitest';
import { fromItem, peopleItem } from './notification-repository.js';
import type { Notification } from '../../../shared/notifications/notification-schema.js';

const version: Notification = {
  practiceId: 'prc_1',
  sk: 'NOTIFICATION#n1#V#0000000002',
  notificationId: 'n1',
  notificationVersion: 2,
  isLatestVersion: true,
  sourceId: 'note-1',
  relatedTo: 'u-2',
  notificationType: 'DRAFT',
  notificationStatus: 'UPDATED',
  assigned: 'u-3',
  previouslyAssigned: null,
  author: 'u-1',
  comments: [{ text: 'Seen' }],
  text: 'Draft note for Aisha Rahman',
  urgent: true,
  patientId: 'p1',
  createdAt: '2026-01-02T10:00:00.000Z',
  dueOn: null,
  lastUpdated: '2026-01-02T11:00:00.000Z',
  lastUpdatedBy: 'u-2',
  data: { noteId: 'note-1', patientId: 'p1' },
};

describe('a stored notification', () => {
  it('read from its by-person copy is the version it copies, under the version’s sort key', () => {
    expect(fromItem(peopleItem(version)!)).toEqual(version);
  });

  it('read from its change-log copy is the version, without the copy’s expiry', () => {
    const logged = {
      ...version,
      sk: 'NOTIFLOG#2026-01-02T11:00:00.000Z#n1#0000000002',
      versionSk: version.sk,
      entityType: 'NOTIFICATION_LOG',
      expiresAt: 1767956400,
    };
    expect(fromItem(logged)).toEqual(version);
  });

  it('holding only its identity, type and status reads as never updated, not urgent, with nothing else set', () => {
    const n = fromItem({
      practiceId: 'prc_1',
      sk: 'NOTIFICATION#n2#V#0000000001',
      notificationId: 'n2',
      notificationVersion: 1,
      notificationType: 'TASK',
      notificationStatus: 'UNREAD',
      createdAt: '2026-01-02T10:00:00.000Z',
    });
    expect(n).toMatchObject({ isLatestVersion: false, urgent: false, lastUpdated: '2026-01-02T10:00:00.000Z', assigned: null, data: null, comments: null });
  });

  it('of an unknown type says which item and which field', () => {
    expect(() => fromItem({ ...version, notificationType: 'CARRIER_PIGEON' })).toThrow(
      `Stored notification item ${version.sk} does not fit its schema: notificationType`,
    );
  });
});
