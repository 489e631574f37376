import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.js';

/** Practice item fields the web reads (spec shell §3 Practice). */
export interface PracticeMetadata {
  practiceId: string;
  practiceName: string;
  productDeactivatedAt?: string | null;
  phoneNumber?: string;
  additionalPhoneNumbers?: { phoneNumber: string; owner: string }[];
  featureFlags?: Record<string, boolean>;
  /** Idle minutes before the screen locks (practice setting, default 15). */
  idleLockMinutes?: number;
}

/** The signed-in user (spec shell §3 User). */
export interface PracticeUser {
  userId: string;
  firstName: string;
  lastName: string;
  name?: string;
  emailAddress: string;
  permissionGroup: 'admin' | 'provider' | 'employee' | 'no_access';
  userStatus?: string;
  educationDegree?: string;
  npiNumber?: string;
  /** Spec shell §3/§6: a super user acts as admin; without a User record the API names them 'Super User'. */
  superUser?: boolean;
}

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
    queryFn: ({ signal }) => apiRequest<PracticeMetadata>({ path: '/v1/practices/metadata', signal }),
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
    queryFn: ({ signal }) => apiRequest<PracticeUser>({ path: '/v1/practices/users/me', signal }),
    staleTime: PRACTICE_METADATA_STALE_MS,
    refetchInterval: ACCESS_RECHECK_MS,
  });
}

/**
 * Everyone with a User record in the practice, as GET /v1/practices/users lists them. `T` lets the
 * team screens read the fields only they show from the same cached list.
 */
export function usePracticeUsers<T = PracticeUser>({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: practiceKeys.users,
    queryFn: ({ signal }) => apiRequest<T[]>({ path: '/v1/practices/users', signal }),
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
