import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.js';

/** Shared by the Communication badge and the calls screen, which refreshes it after each change. */
export const callCountKey = ['phone-calls', 'count'] as const;

/** Spec shell §7.4, §9: the unread calls count, polled every 60 s for the Communication badge. */
export function useCallCount({ enabled = true, subscribed = true }: { enabled?: boolean; subscribed?: boolean } = {}) {
  return useQuery({
    subscribed,
    queryKey: callCountKey,
    queryFn: async ({ signal }) =>
      (await apiRequest({ path: '/v1/phone-calls/count', signal }, async () => (await import('../../../shared/calls/call-responses.js')).CallCount)).count,
    refetchInterval: 60_000,
    enabled,
  });
}
