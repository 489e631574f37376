import type { TeamMember } from './api/settings-api.js';

export { PERMISSION_GROUPS, USER_STATUSES, VERADIGM_USER_TYPES as PRESCRIBER_TYPES } from '../../../../shared/practice/settings-schema.js';

const GROUP_LABELS: Record<string, string> = { admin: 'Admin', provider: 'Provider', employee: 'Employee', no_access: 'No access' };
const STATUS_LABELS: Record<string, string> = { active: 'Active', invited: 'Invited', unconfirmed: 'Unconfirmed', deleted: 'Deleted' };

export const groupLabel = (group: string) => GROUP_LABELS[group] ?? group;
export const statusLabel = (status: string | undefined) => STATUS_LABELS[status ?? 'active'] ?? status ?? '';

/** The team list: by last name, deleted members last. */
export function sortTeam(users: readonly TeamMember[]): TeamMember[] {
  return [...users].sort(
    (a, b) =>
      Number(a.userStatus === 'deleted') - Number(b.userStatus === 'deleted') || a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName),
  );
}
