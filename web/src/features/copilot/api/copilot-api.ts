import { useQuery } from '@tanstack/react-query';
import { fetchAuthSession } from 'aws-amplify/auth';
import { tokensSettled } from '../../../lib/screen-lock.js';
import {
  COPILOT,
  COPILOT_PATHS,
  decodeStreamEvents,
  type ConversationMessagesResponse,
  type ConversationReply,
  type CopilotChatMessage,
  type CopilotStreamEvent,
} from '../../../../../shared/ai/copilot-schema.js';
import { apiRequest } from '../../../lib/api-client.js';
import { fetchFeatureGates } from '../../../lib/feature-flags.js';
import { apiErrorFromResponse } from '../../../lib/api-error.js';
import { runtimeConfig } from '../../../lib/runtime-config.js';

/** The answers' schemas come with the first answer, not with the shell that opens the chat. */
const responses = () => import('../../../../../shared/ai/copilot-responses.js');

export const copilotKeys = {
  all: ['copilot'] as const,
  conversations: (patientId: string | null, keyword: string) => ['copilot', 'conversations', patientId ?? '', keyword] as const,
  /** The same query (and cache) as the chart's feature gates. */
  featureGates: ['practice', 'feature-gates'] as const,
};

export function useCopilotFlags() {
  return useQuery({
    queryKey: copilotKeys.featureGates,
    queryFn: ({ signal }) => fetchFeatureGates(signal),
    staleTime: 1_200_000,
    select: (body) => body.flags ?? {},
  });
}

export function useConversations(patientId: string | null, keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: copilotKeys.conversations(patientId, keyword),
    queryFn: ({ signal }) =>
      apiRequest(
        { path: COPILOT_PATHS.conversations, query: { patientId, keyword, offset: 0, limit: COPILOT.pageSize }, signal },
        async () => (await responses()).ConversationListAnswer,
      ),
    enabled,
  });
}

export function fetchMessages(conversationId: string, offset: number): Promise<ConversationMessagesResponse> {
  return apiRequest(
    { path: COPILOT_PATHS.messages(conversationId), query: { offset, limit: COPILOT.pageSize } },
    async () => (await responses()).ConversationMessagesAnswer,
  );
}

export interface SendInput {
  conversationId: string;
  messages: CopilotChatMessage[];
  entryPointPath: string;
  patientId: string | null;
}

export function sendConversation(input: SendInput): Promise<ConversationReply> {
  return apiRequest({ method: 'POST', path: COPILOT_PATHS.conversation, body: input }, async () => (await responses()).ConversationReplyAnswer);
}

/**
 * The streamed reply from the ai function's URL (or, on a stack without one, the API route, which
 * answers the same events at once). Calls `onEvent` for each event as it arrives.
 */
export async function streamConversation(input: SendInput, onEvent: (event: CopilotStreamEvent) => void, signal?: AbortSignal): Promise<void> {
  const config = runtimeConfig();
  const url = config.copilotStreamUrl
    ? `${config.copilotStreamUrl.replace(/\/$/, '')}${COPILOT_PATHS.stream}`
    : `${config.apiUrl.replace(/\/$/, '')}${COPILOT_PATHS.stream}`;
  await tokensSettled();
  const token = (await fetchAuthSession()).tokens?.idToken?.toString();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-timezone': Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(input),
    signal,
  });
  if (!response.ok || !response.body) throw await apiErrorFromResponse(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const decoded = decodeStreamEvents(buffer);
    buffer = decoded.rest;
    decoded.events.forEach(onEvent);
  }
}
