import type { NotificationList, NotificationListQuery } from '../../shared/notifications/notification-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAuditForPatients } from '../lib/audit/audit-repository.js';
import { listLatest } from '../data/notifications/notification-repository.js';

/** GET /v1/notifications: the filters of spec shell §7.2 plus since=<iso> for catch-up. */
export async function listNotifications(auth: AuthContext, query: NotificationListQuery): Promise<NotificationList> {
  const notifications = await listLatest(auth.practiceId, {
    types: query.notificationType,
    statuses: query.notificationStatus,
    notificationId: query.notificationId,
    sourceId: query.sourceId,
    relatedTo: query.relatedTo,
    assigned: query.assigned,
    since: query.since,
    limit: query.limit,
  });
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'notification', count: notifications.length },
    notifications.map((n) => n.patientId),
  );
  return { notifications };
}
