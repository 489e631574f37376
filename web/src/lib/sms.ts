import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MESSAGING_PATHS, SmsHistory, Conversation } from '../../../shared/messaging/messaging-schema.js';
import { apiRequest } from './api-client.js';
import { messagingKeys } from './messaging.js';

/*
 * Texts read by more than one feature (the Communication hub and the chart's SMS notes). Kept
 * apart from ./messaging.ts, which the first screen loads for its query keys alone.
 */

/** GET /sms?phoneNumber=&before=: a patient phone's texts with every practice number, oldest first. */
export function useSmsHistory(phoneNumber: string | null, before?: string) {
  return useQuery({
    queryKey: messagingKeys.history(phoneNumber ?? '', before ?? ''),
    queryFn: async ({ signal }) => await apiRequest({ path: MESSAGING_PATHS.smsHistory, query: { phoneNumber, before, limit: 100 }, signal }, SmsHistory),
    enabled: Boolean(phoneNumber),
    placeholderData: keepPreviousData,
  });
}

/** Spec shell §4: Mark as Unread sets the selected texts of a conversation to UNREAD. */
export function markMessagesUnread(conversationId: string, messageIds: readonly string[]): Promise<Conversation> {
  return apiRequest({ method: 'PUT', path: MESSAGING_PATHS.markAsUnread(conversationId), body: { messageIds } }, Conversation);
}
