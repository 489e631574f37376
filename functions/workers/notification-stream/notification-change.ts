import type { DynamoDBRecord } from 'aws-lambda';
import type { NotificationEvent } from '../../lib/adapters/notification-publisher.js';
import { fromStreamImage } from '../../lib/table/stream.js';
import { fromItem } from '../../data/notifications/notification-repository.js';

export type NotificationChangeKind = 'created' | 'updated';

export interface NotificationChange {
  kind: NotificationChangeKind;
  notification: NotificationEvent;
}

/**
 * What one stream record announces to subscribers: a new latest version of a notification.
 * Version 1 is OnCreateNotification, every later version OnUpdateNotification; anything else
 * (the old version losing isLatestVersion, change-log copies, removals) announces nothing.
 */
export function notificationChange(record: DynamoDBRecord): NotificationChange | null {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return null;
  const item = fromStreamImage(image);
  if (item.entityType !== 'NOTIFICATION' || item.isLatestVersion !== true) return null;
  const n = fromItem(item);
  return {
    kind: n.notificationVersion === 1 ? 'created' : 'updated',
    notification: { ...n, data: n.data ?? null, comments: n.comments ?? null },
  };
}
