import type { ConversationInput, Notification, NotificationStatus } from '../../../shared/notifications/notification-schema.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAuditForPatients } from '../../lib/audit/audit-repository.js';
import { ConflictError } from '../../lib/errors.js';
import { listLatest, updateNotification } from '../../data/notifications/notification-repository.js';

export type ConversationAction = 'read' | 'archive' | 'unarchive';

/** Spec shell §4: marking read sets READ, archiving sets COMPLETED, unarchiving sets READ. */
const TRANSITIONS: Record<ConversationAction, { from: NotificationStatus[]; to: NotificationStatus }> = {
  read: { from: ['UNREAD', 'UPDATED'], to: 'READ' },
  archive: { from: ['UNREAD', 'UPDATED', 'READ'], to: 'COMPLETED' },
  unarchive: { from: ['COMPLETED'], to: 'READ' },
};

const digits = (s: unknown) =>
  String(s ?? '')
    .replace(/\D/g, '')
    .slice(-10);

/** An SMS belongs to the conversation between two numbers in either direction. */
export function inConversation(n: Pick<Notification, 'data'>, c: ConversationInput): boolean {
  const from = digits(n.data?.from);
  const to = digits(n.data?.to);
  const a = digits(c.from);
  const b = digits(c.to);
  return (from === a && to === b) || (from === b && to === a);
}

export async function setConversationStatus(auth: AuthContext, action: ConversationAction, conversation: ConversationInput): Promise<{ updated: number }> {
  const { from, to } = TRANSITIONS[action];
  const matching = (await listLatest(auth.practiceId, { types: ['SMS'], statuses: from, limit: 500 })).filter((n) => inConversation(n, conversation));
  let updated = 0;
  for (const n of matching) {
    try {
      await updateNotification(auth.practiceId, n.notificationId, { notificationStatus: to }, auth, { expectedVersion: n.notificationVersion });
      updated += 1;
    } catch (error) {
      // Someone else changed this message meanwhile; their change stands.
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  await writeAuditForPatients(
    auth,
    { action: 'update', entity: 'sms-conversation', count: updated },
    matching.map((n) => n.patientId),
  );
  return { updated };
}
