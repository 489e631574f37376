import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PracticeMetadataUpdate } from '../../../../../shared/practice/settings-schema.js';
import { apiRequest } from '../../../lib/api-client.js';
import { practiceKeys, type PracticeMetadata, type PracticeUser } from '../../../lib/practice.js';

/** Fields of spec shell §3 User the team screens show beyond what the shell reads. */
export type TeamMember = Omit<PracticeUser, 'npiNumber'> & { npiNumber?: string | null; cellNumber?: string | null; veradigmUserType?: string | null; createdAt?: string };
export type PracticeDetails = PracticeMetadata & { base64Logo?: string };

const usersKey = ['practice', 'users'] as const;
const gatesKey = ['practice', 'feature-gates'] as const;

export function useTeam() {
  return useQuery({ queryKey: usersKey, queryFn: ({ signal }) => apiRequest<TeamMember[]>({ path: '/v1/practices/users', signal }), staleTime: 60_000 });
}

export function useFeatureGates() {
  return useQuery({
    queryKey: gatesKey,
    queryFn: async ({ signal }) => (await apiRequest<{ flags: Record<string, boolean> }>({ path: '/v1/practices/feature-gates', signal })).flags,
  });
}

export function useSavePractice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PracticeMetadataUpdate) =>
      apiRequest<PracticeDetails>({ method: 'PUT', path: '/v1/practices/metadata', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: practiceKeys.metadata }),
  });
}

export function useSaveFeatureGates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (flags: Record<string, boolean>) => apiRequest<unknown>({ method: 'PUT', path: '/v1/practices/feature-gates', body: { flags } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: gatesKey }),
  });
}

export function useSaveTeamMember(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<TeamMember>) => apiRequest<TeamMember>({ method: 'PUT', path: `/v1/practices/users/${encodeURIComponent(userId)}`, body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: usersKey });
      void queryClient.invalidateQueries({ queryKey: practiceKeys.me });
    },
  });
}
