import type { NotificationList, NotificationListQuery } from '../../shared/notifications/notification-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAuditForPatients } from '../lib/audit/audit-repository.js';
import { listChangedSince, listLatest } from '../data/notifications/notification-repository.js';

/** GET /v1/notifications: the filters of spec shell §7.2 plus since=<iso> for catch-up. */
export async function listNotifications(auth: AuthContext, query: NotificationListQuery): Promise<NotificationList> {
  const filters = {
    types: query.notificationType,
    statuses: query.notificationStatus,
    notificationId: query.notificationId,
    sourceId: query.sourceId,
    relatedTo: query.relatedTo,
    assigned: query.assigned,
    limit: query.limit,
  };
  const answer: NotificationList = query.since
    ? await listChangedSince(auth.practiceId, { ...filters, since: query.since })
    : { notifications: await listLatest(auth.practiceId, filters) };
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'notification', count: answer.notifications.length },
    answer.notifications.map((n) => n.patientId),
  );
  return answer;
}
