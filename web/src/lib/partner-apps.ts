import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { PARTNER_MESSAGES } from '../../../shared/partners/partner-constants.js';
import type { PartnerApp, PartnerAppList } from '../../../shared/partners/partner-schema.js';
import { apiRequest } from './api-client.js';
import { PRACTICE_METADATA_STALE_MS } from './practice.js';
import { showToast } from './toasts.js';

export const partnerAppKeys = { list: ['practice', 'partner-apps'] as const };

/** The list's query, for a screen that reads it without the menus' failure toast. */
export const partnerAppsQuery = {
  queryKey: partnerAppKeys.list,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    // The schema comes with the answer: the list is read at start, and zod is not on the first screen.
    apiRequest({ path: '/v1/practices/partner-apps', signal }, async () => (await import('../../../shared/partners/partner-schema.js')).PartnerAppList),
  staleTime: PRACTICE_METADATA_STALE_MS,
  retry: 1,
};

/** One toast per failed fetch, however many menus read the list. */
let toastedFailureAt = 0;

/**
 * The practice's partner apps (spec shell §7.7 emr/partner_apps), fetched once at start and shared by
 * the palette, the chart's menu, the partner windows and settings. A failure says
 * 'Failed to fetch interaction partner apps' and the menus offer no partner app.
 */
export function usePartnerApps() {
  const query = useQuery(partnerAppsQuery);
  useEffect(() => {
    if (query.isError && query.errorUpdatedAt !== toastedFailureAt) {
      toastedFailureAt = query.errorUpdatedAt;
      showToast(PARTNER_MESSAGES.fetchFailed, { tone: 'error' });
    }
  }, [query.isError, query.errorUpdatedAt]);
  return query;
}

/** The apps the New Interaction menus offer. */
export function activePartnerApps(list: PartnerAppList | undefined): PartnerApp[] {
  return (list?.partnerApps ?? []).filter((a) => a.active);
}

/** The menu label: a local demo partner says so (house rule: local sandboxes are labelled). */
export const partnerAppLabel = (app: Pick<PartnerApp, 'name' | 'local'>) => (app.local ? `${app.name} (local partner)` : app.name);
