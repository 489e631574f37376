import { useQuery } from '@tanstack/react-query';
import type { FeatureFlag } from '../../../shared/constants/feature-flags.js';
import { apiRequest } from './api-client.js';

/**
 * One cache for the practice's feature gates, shared with the chart and the settings screen, so a
 * flag turned on there applies at once. The cache holds the API's answer as it comes ({flags}).
 */
export const featureGatesKey = ['practice', 'feature-gates'] as const;

export function fetchFeatureGates(signal?: AbortSignal): Promise<{ flags: Record<string, boolean> }> {
  return apiRequest({ path: '/v1/practices/feature-gates', signal }, async () => (await import('../../../shared/practice/settings-responses.js')).FeatureGates);
}

/** Spec shell §6: a flag from the server's feature gates; false until they are known. */
export function useFeatureFlag(flag: FeatureFlag): boolean {
  const gates = useQuery({
    queryKey: featureGatesKey,
    queryFn: ({ signal }) => fetchFeatureGates(signal),
    staleTime: 300_000,
    select: (body) => body.flags?.[flag] === true,
  });
  return gates.data === true;
}
