import { backfillConversationKeys, backfillLastInbound } from '../../../functions/data/messaging/conversation-backfill.js';
import { backfillCallCounts, backfillCallListKeys } from '../../../functions/data/calls/call-backfill.js';
import { backfillNotificationCounts } from '../../../functions/data/notifications/notification-backfill.js';
import { backfillContactNumbers } from '../../../functions/data/contacts/contact-backfill.js';
import { backfillProviderAppointmentKeys } from '../../../functions/data/calendar/appointment-backfill.js';

/**
 * Keys added after a practice's data was written: each backfill runs once per practice (it marks
 * itself done) before the API serves, so a data folder from an older version reads by page too.
 */
export async function backfillKeys(practiceId: string): Promise<{ conversations: number; lastInbound: number; appointments: number; notifications: number; calls: number; callList: number; contacts: number }> {
  return {
    conversations: await backfillConversationKeys(practiceId),
    lastInbound: await backfillLastInbound(practiceId),
    appointments: await backfillProviderAppointmentKeys(practiceId),
    notifications: await backfillNotificationCounts(practiceId),
    calls: await backfillCallCounts(practiceId),
    callList: await backfillCallListKeys(practiceId),
    contacts: await backfillContactNumbers(practiceId),
  };
}
