import type { TeamMember } from './api/settings-api.js';

/** Spec shell §3 User and §6 e-prescribing user types. */
export const USER_STATUSES = ['active', 'invited', 'unconfirmed', 'deleted'] as const;
export const PERMISSION_GROUPS = ['admin', 'provider', 'employee', 'no_access'] as const;
export const PRESCRIBER_TYPES = ['Provider', 'PA', 'PASupervised', 'POBNoReview', 'POBSomeReview', 'POBAllReview', 'StaffUser'] as const;

const GROUP_LABELS: Record<string, string> = { admin: 'Admin', provider: 'Provider', employee: 'Employee', no_access: 'No access' };
const STATUS_LABELS: Record<string, string> = { active: 'Active', invited: 'Invited', unconfirmed: 'Unconfirmed', deleted: 'Deleted' };

export const groupLabel = (group: string) => GROUP_LABELS[group] ?? group;
export const statusLabel = (status: string | undefined) => STATUS_LABELS[status ?? 'active'] ?? status ?? '';

/** The team list: by last name, deleted members last. */
export function sortTeam(users: readonly TeamMember[]): TeamMember[] {
  return [...users].sort(
    (a, b) =>
      Number(a.userStatus === 'deleted') - Number(b.userStatus === 'deleted') ||
      a.lastName.localeCompare(b.lastName) ||
      a.firstName.localeCompare(b.firstName),
  );
}
