import type { Notification, NotificationType } from '../../../../shared/notifications/notification-schema.js';

const TYPE_LABEL: Record<NotificationType, string> = {
  TASK: 'Task',
  PHONE_CALL: 'Phone call',
  SMS: 'SMS',
  LAB_RESULTS: 'Lab results',
  DRAFT: 'Draft',
  FORM: 'Form',
  FAX: 'Fax',
};

/**
 * A toast for a notification that just arrived for me from someone else (or from a reminder);
 * null when the event is not news to this user.
 */
export function announcementFor(
  notification: Notification,
  kind: 'created' | 'updated' | 'missed',
  me: string | undefined,
): { title: string; description?: string } | null {
  if (!me || notification.assigned !== me || kind === 'missed') return null;
  if (notification.notificationStatus !== 'UNREAD' && notification.notificationStatus !== 'UPDATED') return null;
  // A reminder is news even to the person who set it: it fires when they are busy with something else.
  if (notification.data?.kind === 'reminder') return kind === 'created' ? { title: 'Reminder', description: notification.text ?? undefined } : null;
  if (notification.author === me) return null;
  const label = TYPE_LABEL[notification.notificationType];
  const verb = notification.notificationStatus === 'UPDATED' || kind === 'updated' ? 'updated' : 'new';
  return { title: verb === 'new' ? `New ${label.toLowerCase()}` : `${label} updated`, description: notification.text ?? undefined };
}
