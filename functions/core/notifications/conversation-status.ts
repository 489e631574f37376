import type { ConversationInput, Notification, NotificationStatus } from '../../../shared/notifications/notification-schema.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAuditForPatients } from '../../lib/audit/audit-repository.js';
import { ConflictError } from '../../lib/errors.js';
import { conversationIdFor } from '../../data/messaging/conversation-id.js';
import {
  listConversationNotifications,
  listLatest,
  pairDigits,
  smsPairsIndexed,
  updateNotification,
} from '../../data/notifications/notification-repository.js';
import { normalizePhone } from '../../../shared/patients/phone.js';

export type ConversationAction = 'read' | 'archive' | 'unarchive';

/** Spec shell §4: marking read sets READ, archiving sets COMPLETED, unarchiving sets READ. */
const TRANSITIONS: Record<ConversationAction, { from: NotificationStatus[]; to: NotificationStatus }> = {
  read: { from: ['UNREAD', 'UPDATED'], to: 'READ' },
  archive: { from: ['UNREAD', 'UPDATED', 'READ'], to: 'COMPLETED' },
  unarchive: { from: ['COMPLETED'], to: 'READ' },
};

/** An SMS belongs to the conversation between two numbers in either direction. */
export function inConversation(n: Pick<Notification, 'data'>, c: ConversationInput): boolean {
  const from = pairDigits(n.data?.from);
  const to = pairDigits(n.data?.to);
  const a = pairDigits(c.from);
  const b = pairDigits(c.to);
  return (from === a && to === b) || (from === b && to === a);
}

/** The conversation's SMS notifications in the given statuses: from its own keys once they are all kept, else from every open SMS. */
async function conversationNotifications(
  practiceId: string,
  c: ConversationInput,
  statuses: NotificationStatus[],
  conversationId: string | undefined,
): Promise<Notification[]> {
  if (!(await smsPairsIndexed(practiceId))) {
    return (await listLatest(practiceId, { types: ['SMS'], statuses, limit: 500 })).filter((n) => inConversation(n, c));
  }
  // Which number is the practice's is not said: the conversation's id either way round.
  const a = normalizePhone(c.from) ?? c.from;
  const b = normalizePhone(c.to) ?? c.to;
  const ids = [...new Set([...(conversationId ? [conversationId] : []), conversationIdFor(a, b), conversationIdFor(b, a)])];
  return (await listConversationNotifications(ids, c)).filter((n) => statuses.includes(n.notificationStatus) && inConversation(n, c));
}

/** `conversationId` when the caller knows the conversation (the messaging hub); the notifications API gives only the numbers. */
export async function setConversationStatus(
  auth: AuthContext,
  action: ConversationAction,
  conversation: ConversationInput,
  conversationId?: string,
): Promise<{ updated: number }> {
  const { from, to } = TRANSITIONS[action];
  const matching = await conversationNotifications(auth.practiceId, conversation, from, conversationId);
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
