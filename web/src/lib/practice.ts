import { useQuery } from '@tanstack/react-query';
import type * as z from '../../../shared/zod.js';
import type { PracticeRecord, TeamMemberRecord } from '../../../shared/practice/settings-responses.js';
import { apiRequest } from './api-client.js';
import { CURRENT_USER_REQUEST, PRACTICE_METADATA_REQUEST } from './first-screen-requests.js';

/** Practice item fields (spec shell §3 Practice), as GET /v1/practices/metadata answers them. */
export type PracticeMetadata = z.output<typeof PracticeRecord>;

/**
 * A user of the practice (spec shell §3 User) as the users list has them; the signed-in user's own
 * record adds `superUser` (spec shell §3/§6: a super user acts as admin; without a User record the API names them 'Super User').
 */
export type PracticeUser = z.output<typeof TeamMemberRecord> & { superUser?: boolean };

/** The answers' schemas come with the first answer, so zod is not on the first screen. */
const responses = () => import('../../../shared/practice/settings-responses.js');

/** Spec shell §9: practice metadata is cached 20 minutes. */
export const PRACTICE_METADATA_STALE_MS = 1_200_000;

export const practiceKeys = {
  metadata: ['practice', 'metadata'] as const,
  /** The practice's users (team screens, assignee lists, the palette); a prefix of `me`, so a team edit refreshes both. */
  users: ['practice', 'users'] as const,
  me: ['practice', 'users', 'me'] as const,
};

export function usePracticeMetadata() {
  return useQuery({
    queryKey: practiceKeys.metadata,
    queryFn: ({ signal }) => apiRequest({ ...PRACTICE_METADATA_REQUEST, signal }, async () => (await responses()).PracticeRecord),
    staleTime: PRACTICE_METADATA_STALE_MS,
    gcTime: PRACTICE_METADATA_STALE_MS,
  });
}

/**
 * How often an open session asks for its own user again: an admin's removal (answered 401 or 403
 * no_access, which signs out) reaches an idle screen within a minute, the API caching a user's
 * record for at most 30 s (functions/lib/auth/access-record.ts).
 */
export const ACCESS_RECHECK_MS = 25_000;

export function useCurrentUser() {
  return useQuery({
    queryKey: practiceKeys.me,
    queryFn: ({ signal }) => apiRequest({ ...CURRENT_USER_REQUEST, signal }, async () => (await responses()).CurrentUserRecord),
    staleTime: PRACTICE_METADATA_STALE_MS,
    refetchInterval: ACCESS_RECHECK_MS,
  });
}

/**
 * Everyone with a User record in the practice, as GET /v1/practices/users lists them, with the
 * fields the team screens show too, so every screen reads the same cached list.
 */
export function usePracticeUsers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: practiceKeys.users,
    queryFn: ({ signal }) => apiRequest({ path: '/v1/practices/users', signal }, async () => (await responses()).TeamMemberList),
    enabled,
    staleTime: 60_000,
  });
}

/** Spec shell §8: the signed-in user's record could not be fetched. */
export const USER_FETCH_ERROR_TEXT =
  'An error occurred fetching your user. Please contact your practice admin. If the issue persists, please contact customer support';

export function displayUserName(user: Pick<PracticeUser, 'name' | 'firstName' | 'lastName'>): string {
  return user.name?.trim() || `${user.firstName} ${user.lastName}`.trim();
}
