import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  mergeNotifications,
  NOTIFICATION_STORE_TYPES,
  OPEN_NOTIFICATION_STATUSES,
  UNREAD_COUNT_POLL_MS,
  type NotificationType,
} from '../../../../../shared/notifications/notification-constants.js';
import type { Notification, UnreadCount } from '../../../../../shared/notifications/notification-schema.js';

/**
 * The schemas these answers are checked against load once the first screen is up, not with it:
 * every screen's badges read notifications, and the schema library is most of their weight. The
 * badges fill in a moment after the screen shows.
 */
const schemas = () => afterFirstScreen().then(() => import('../../../../../shared/notifications/notification-schema.js'));
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { afterFirstScreen } from '../../../lib/after-first-screen.js';
import { apiRequest } from '../../../lib/api-client.js';
import { UNREAD_COUNT_REQUEST } from '../../../lib/first-screen-requests.js';

export const notificationKeys = {
  all: ['notifications'] as const,
  store: (type: NotificationType) => [...notificationKeys.all, 'store', type] as const,
  unreadCount: () => [...notificationKeys.all, 'unread-count'] as const,
};

/** One per-type store (spec shell §4): the open notifications of that type, merged updated, unread, read. */
export async function fetchNotificationStore(type: NotificationType, signal?: AbortSignal): Promise<Notification[]> {
  const body = await apiRequest(
    { path: '/v1/notifications', query: { notificationType: type, notificationStatus: OPEN_NOTIFICATION_STATUSES.join(',') }, signal },
    () => schemas().then((m) => m.NotificationList),
  );
  return mergeNotifications([], body.notifications);
}

/**
 * What changed since a moment: the catch-up after a (re)connect. When more changed than one answer
 * holds (a laptop asleep all afternoon), the lists are reloaded instead: each reads one page.
 */
export async function catchUpNotifications(queryClient: QueryClient, since: string): Promise<Notification[]> {
  const body = await apiRequest({ path: '/v1/notifications', query: { since } }, () => schemas().then((m) => m.NotificationList));
  placeNotifications(queryClient, body.notifications);
  if (body.complete === false) void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  return body.notifications;
}

export function useNotificationStore(type: NotificationType) {
  return useQuery({ queryKey: notificationKeys.store(type), queryFn: ({ signal }) => fetchNotificationStore(type, signal) });
}

/** `subscribed: false` neither asks nor re-renders for the count until it turns true. */
export function useUnreadCount({ subscribed = true }: { subscribed?: boolean } = {}) {
  return useQuery({
    subscribed,
    queryKey: notificationKeys.unreadCount(),
    queryFn: ({ signal }) => apiRequest({ ...UNREAD_COUNT_REQUEST, signal }, () => schemas().then((m) => m.UnreadCount)),
    refetchInterval: UNREAD_COUNT_POLL_MS,
    staleTime: 5_000,
  });
}

/**
 * Spec shell §2.2: the Communication badge is the calls count plus the unread texts and faxes. The
 * calls count is GET /v1/phone-calls/count when the caller has it (unread calls, read or not as
 * notifications), else the unread PHONE_CALL notifications.
 */
export function communicationUnread(count: UnreadCount | undefined, calls?: number): number {
  const phone = calls ?? count?.byType.PHONE_CALL ?? 0;
  if (!count) return phone;
  return phone + (count.byType.SMS ?? 0) + (count.byType.FAX ?? 0);
}

const OPEN = new Set(OPEN_NOTIFICATION_STATUSES);

/**
 * Places live or caught-up notifications into the per-type stores already loaded (a store nobody
 * has opened loads fresh when it is) and refreshes the unread count.
 */
export function placeNotifications(queryClient: QueryClient, notifications: readonly Notification[]): void {
  for (const type of NOTIFICATION_STORE_TYPES) {
    const incoming = notifications.filter((n) => n.notificationType === type);
    if (incoming.length === 0) continue;
    queryClient.setQueryData<Notification[]>(notificationKeys.store(type), (current) =>
      current ? mergeNotifications(current, incoming).filter((n) => OPEN.has(n.notificationStatus)) : current,
    );
  }
  if (notifications.length > 0) void queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() });
  // A fired reminder changes the reminder list (it now has firedAt).
  if (notifications.some((n) => n.data?.kind === 'reminder')) void queryClient.invalidateQueries({ queryKey: ['reminders'] });
}

/** The names (with age) of the patients the given drafts belong to, by patient id, as they arrive. */
export function usePatientNames(patientIds: readonly string[]): Map<string, string> {
  const results = useQueries({
    queries: [...new Set(patientIds)].map((id) => ({
      // The key lib/patients gives a patient by id; that module (and the patient schema) is
      // fetched only when there are names to show, not with every first screen.
      queryKey: ['patients', 'detail', id],
      queryFn: async ({ signal }: { signal: AbortSignal }) => (await import('../../../lib/patients.js')).fetchPatient(id, signal),
      staleTime: 5 * 60_000,
    })),
  });
  return new Map(results.flatMap((r) => (r.data ? [[r.data.id, fullNameWithAge(r.data)] as const] : [])));
}
