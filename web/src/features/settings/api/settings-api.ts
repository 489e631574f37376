import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DrugSafetySources } from '../../../../../shared/chart/drug-safety.js';
import { PartnerAppList, type PartnerAppInput } from '../../../../../shared/partners/partner-schema.js';
import { NoContent } from '../../../../../shared/http/no-content.js';
import {
  DoseSpotSyncTaskList,
  DrugSafetySourceList,
  FeatureGates,
  PracticeSaved,
  TeamMemberRecord,
} from '../../../../../shared/practice/settings-responses.js';
import type { ChargeItemInput } from '../../../../../shared/sales/charge-item-input.js';
import { ChargeItem, ChargeItemList } from '../../../../../shared/sales/sales-schema.js';
import type { PracticeMetadataUpdate } from '../../../../../shared/practice/settings-schema.js';
import { apiRequest } from '../../../lib/api-client.js';
import { featureGatesKey, fetchFeatureGates } from '../../../lib/feature-flags.js';
import { practiceKeys, usePracticeUsers, type PracticeMetadata, type PracticeUser } from '../../../lib/practice.js';

/** Fields of spec shell §3 User the team screens show beyond what the shell reads. */
export type TeamMember = Omit<PracticeUser, 'npiNumber'> & {
  npiNumber?: string | null;
  cellNumber?: string | null;
  veradigmUserType?: string | null;
  doseSpotUserId?: string | null;
  createdAt?: string;
};
export type PracticeDetails = PracticeMetadata & { base64Logo?: string };

const gatesKey = featureGatesKey;

export function useTeam() {
  return usePracticeUsers();
}

export function useFeatureGates() {
  return useQuery({
    queryKey: gatesKey,
    queryFn: ({ signal }) => fetchFeatureGates(signal),
    select: (body) => body.flags,
  });
}

export function useSavePractice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PracticeMetadataUpdate) => apiRequest({ method: 'PUT', path: '/v1/practices/metadata', body }, PracticeSaved),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: practiceKeys.metadata }),
  });
}

export function useSaveFeatureGates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (flags: Record<string, boolean>) => apiRequest({ method: 'PUT', path: '/v1/practices/feature-gates', body: { flags } }, FeatureGates),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: gatesKey }),
  });
}

export function useSaveTeamMember(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<TeamMember>) => apiRequest({ method: 'PUT', path: `/v1/practices/users/${encodeURIComponent(userId)}`, body }, TeamMemberRecord),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: practiceKeys.users });
      void queryClient.invalidateQueries({ queryKey: practiceKeys.me });
    },
  });
}

/** Admins only: turns the member's authenticator app off; they set up a new one at their next sign-in. */
export function useResetTeamMemberMfa(userId: string) {
  return useMutation({
    mutationFn: () => apiRequest({ method: 'DELETE', path: `/v1/practices/users/${encodeURIComponent(userId)}/mfa` }, NoContent),
  });
}

/** The latest DoseSpot prescription sync runs (hourly and on demand), for admins and prescribers; others get 403. */
export function useDoseSpotSyncTasks() {
  return useQuery({
    queryKey: ['dosespot-sync-tasks'],
    queryFn: ({ signal }) => apiRequest({ path: '/v1/practices/users/me/dosespot-sync', query: { limit: '10' }, signal }, DoseSpotSyncTaskList),
    select: (body) => body.tasks,
    retry: false,
  });
}

export function savePartnerApps(partnerApps: (PartnerAppInput & { partnerAppId: string })[]): Promise<unknown> {
  return apiRequest({ method: 'PUT', path: '/v1/practices/partner-apps', body: { partnerApps } }, PartnerAppList);
}

export async function fetchChargeItems(q: string, signal?: AbortSignal): Promise<ChargeItem[]> {
  return (await apiRequest({ path: '/v1/inventories/charge-items', query: { q }, signal }, ChargeItemList)).chargeItems;
}

/** Creates a charge item, or replaces the one with this id. */
export function saveChargeItem(id: string | null, body: ChargeItemInput): Promise<ChargeItem> {
  const path = '/v1/inventories/charge-items';
  return apiRequest(id ? { method: 'PUT', path: `${path}/${encodeURIComponent(id)}`, body } : { method: 'POST', path, body }, ChargeItem);
}

export function deleteChargeItem(id: string): Promise<unknown> {
  return apiRequest({ method: 'DELETE', path: `/v1/inventories/charge-items/${encodeURIComponent(id)}` }, NoContent);
}

export function fetchDrugSafetySources(signal?: AbortSignal): Promise<DrugSafetySources> {
  return apiRequest({ path: '/v1/drug-safety-sources', signal }, DrugSafetySourceList);
}
