import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { notificationChange } from './notification-change.js';

const version = (v: number, extra: Record<string, unknown> = {}) => ({
  practiceId: { S: 'prc_demo' },
  sk: { S: `NOTIFICATION#n-1#V#${String(v).padStart(10, '0')}` },
  entityType: { S: 'NOTIFICATION' },
  notificationId: { S: 'n-1' },
  notificationVersion: { N: String(v) },
  isLatestVersion: { BOOL: true },
  notificationType: { S: 'LAB_RESULTS' },
  notificationStatus: { S: 'UNREAD' },
  urgent: { BOOL: false },
  text: { S: 'Potassium 5.9' },
  assigned: { NULL: true },
  data: { M: { noteId: { S: 'note-7' }, pages: { N: '2' }, tags: { L: [{ S: 'a' }] } } },
  createdAt: { S: '2026-11-24T08:00:00.000Z' },
  lastUpdated: { S: '2026-11-24T08:00:00.000Z' },
  ...extra,
});

const record = (eventName: DynamoDBRecord['eventName'], images: { NewImage?: object; OldImage?: object }): DynamoDBRecord => ({
  eventName,
  eventID: 'e-1',
  dynamodb: { Keys: { practiceId: { S: 'prc_demo' }, sk: { S: 'x' } }, SequenceNumber: '100', StreamViewType: 'NEW_AND_OLD_IMAGES', ...images } as never,
});

describe('stream record to subscriber event', () => {
  it('announces version 1 as created, with the item in the AppSync shape', () => {
    expect(notificationChange(record('INSERT', { NewImage: version(1) }))).toEqual({
      kind: 'created',
      notification: expect.objectContaining({
        practiceId: 'prc_demo',
        sk: 'NOTIFICATION#n-1#V#0000000001',
        notificationId: 'n-1',
        notificationVersion: 1,
        isLatestVersion: true,
        notificationType: 'LAB_RESULTS',
        notificationStatus: 'UNREAD',
        text: 'Potassium 5.9',
        assigned: null,
        comments: null,
        data: { noteId: 'note-7', pages: 2, tags: ['a'] },
      }),
    });
  });

  it('announces every later version as updated', () => {
    expect(notificationChange(record('INSERT', { NewImage: version(3, { notificationStatus: { S: 'READ' } }) }))).toMatchObject({
      kind: 'updated',
      notification: { notificationVersion: 3, notificationStatus: 'READ' },
    });
  });

  it('announces nothing for the old version losing its flag, change-log copies, markers or removals', () => {
    expect(notificationChange(record('MODIFY', { OldImage: version(1), NewImage: version(1, { isLatestVersion: { BOOL: false } }) }))).toBeNull();
    expect(notificationChange(record('INSERT', { NewImage: version(2, { entityType: { S: 'NOTIFICATION_LOG' } }) }))).toBeNull();
    expect(
      notificationChange(
        record('INSERT', { NewImage: { practiceId: { S: 'p' }, sk: { S: 'NOTIFPUB#n-1#V#1' }, entityType: { S: 'NOTIFICATION_PUBLISHED' } } }),
      ),
    ).toBeNull();
    expect(notificationChange(record('REMOVE', { OldImage: version(1) }))).toBeNull();
  });
});
