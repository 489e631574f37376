/*
 * Notification constants and merge rules without the schemas: the shell's badges and live stores
 * use them on every first screen, where the schema library is not loaded yet.
 */

/** Spec shell §3 Notification (live feed). */
export const NOTIFICATION_TYPES = ['TASK', 'PHONE_CALL', 'SMS', 'LAB_RESULTS', 'DRAFT', 'FORM', 'FAX'] as const;
export const NOTIFICATION_STATUSES = ['UNREAD', 'UPDATED', 'READ', 'COMPLETED', 'DELETED'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** Spec shell §4: lists are merged updated, then unread, then read (then the closed ones). */
export const NOTIFICATION_STATUS_ORDER: readonly NotificationStatus[] = ['UPDATED', 'UNREAD', 'READ', 'COMPLETED', 'DELETED'];
/** Statuses a list shows when the caller names none. */
export const OPEN_NOTIFICATION_STATUSES: readonly NotificationStatus[] = ['UPDATED', 'UNREAD', 'READ'];
/** Statuses that count towards an unread badge. */
export const UNREAD_NOTIFICATION_STATUSES: readonly NotificationStatus[] = ['UNREAD', 'UPDATED'];
/** Per-type stores of the browser (spec shell §4): every type except TASK, which has its own screen. */
export const NOTIFICATION_STORE_TYPES: readonly NotificationType[] = ['FAX', 'PHONE_CALL', 'SMS', 'LAB_RESULTS', 'DRAFT', 'FORM'];

/** Spec shell §9: live feed inactivity reconnect, unread count polling. */
export const LIVE_FEED_INACTIVITY_RECONNECT_MS = 120_000;
export const UNREAD_COUNT_POLL_MS = 60_000;
export const TASKS_COUNT_POLL_MS = 30_000;
/** Largest list one GET /v1/notifications answers (not in the spec; keeps a response bounded). */
export const NOTIFICATION_LIST_MAX = 500;
export const NOTIFICATION_LIST_DEFAULT = 100;
/** How far back GET /v1/notifications?since= can reach (the change log's time to live). */
export const NOTIFICATION_CATCH_UP_DAYS = 7;
export const NOTIFICATION_TEXT_MAX = 5000;

/** Merge rule of spec shell §4: updated, then unread, then read; newest first within a status. */
/** What ordering and merging read of a notification (a Notification has these and more). */
export interface MergeableNotification {
  notificationId: string;
  notificationVersion: number;
  notificationStatus: NotificationStatus;
  createdAt: string;
}

export function compareNotifications(a: Pick<MergeableNotification, 'notificationStatus' | 'createdAt'>, b: typeof a): number {
  const rank = (s: NotificationStatus) => NOTIFICATION_STATUS_ORDER.indexOf(s);
  return rank(a.notificationStatus) - rank(b.notificationStatus) || b.createdAt.localeCompare(a.createdAt);
}

/** Replaces older versions by id and keeps the merge order; the browser stores use it for live events. */
export function mergeNotifications<T extends MergeableNotification>(current: readonly T[], incoming: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const n of [...current, ...incoming]) {
    const seen = byId.get(n.notificationId);
    if (!seen || seen.notificationVersion <= n.notificationVersion) byId.set(n.notificationId, n);
  }
  return [...byId.values()].sort(compareNotifications);
}

/** Side-menu badge text, spec shell §9: counts above 9 read '9+'. */
export function badgeText(count: number): string {
  if (count <= 0) return '';
  return count > 9 ? '9+' : String(count);
}
