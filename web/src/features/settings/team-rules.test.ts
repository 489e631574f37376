import { describe, expect, it } from 'vitest';
import { groupLabel, sortTeam } from './team-rules.js';
import type { TeamMember } from './api/settings-api.js';

const member = (firstName: string, lastName: string, userStatus = 'active'): TeamMember =>
  ({ userId: lastName, firstName, lastName, emailAddress: '', permissionGroup: 'employee', userStatus }) as TeamMember;

describe('team list', () => {
  it('sorts by last name with deleted members at the end', () => {
    const sorted = sortTeam([member('Sam', 'Porter', 'deleted'), member('Jordan', 'Ellis'), member('Alicia', 'Moreno'), member('Hannah', 'Cole')]);
    expect(sorted.map((u) => u.lastName)).toEqual(['Cole', 'Ellis', 'Moreno', 'Porter']);
  });

  it('names permission groups for people', () => {
    expect(groupLabel('no_access')).toBe('No access');
  });
});
