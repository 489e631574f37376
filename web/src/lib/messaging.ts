import type { QueryClient } from '@tanstack/react-query';

/*
 * SMS conversations and scheduled texts as every feature reads them: the Communication hub, the
 * SMS chat, the chart's SMS notes and the menu badge share these keys, so one live event (an
 * inbound text's notification) refreshes all of them.
 */

export interface ConversationListParams {
  view: ConversationView;
  search: string;
  offset: number;
}
export type ConversationView = 'unread' | 'read' | 'archived';

export const messagingKeys = {
  all: ['messaging'] as const,
  conversations: () => [...messagingKeys.all, 'conversations'] as const,
  conversationList: (params: ConversationListParams) => [...messagingKeys.conversations(), 'list', params] as const,
  conversation: (patientPhone: string, practicePhone: string) => [...messagingKeys.conversations(), 'pair', patientPhone, practicePhone] as const,
  messages: (conversationId: string) => [...messagingKeys.all, 'messages', conversationId] as const,
  history: (phoneNumber: string, before: string) => [...messagingKeys.all, 'history', phoneNumber, before] as const,
  scheduled: () => [...messagingKeys.all, 'scheduled'] as const,
  scheduledFor: (filters: Record<string, string | undefined>) => [...messagingKeys.scheduled(), filters] as const,
  scheduledEvent: (eventId: string) => [...messagingKeys.scheduled(), 'event', eventId] as const,
};

/** An inbound text, a delivery receipt or a fired scheduled text: whatever is shown of messaging may have changed. */
export function refreshMessaging(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: messagingKeys.all });
}
