import { describe, expect, it } from 'vitest';
import { age, dobString, fullName, fullNameWithAge, membershipDisplayStatus, preferredName, primaryPhone } from './patient-derived.js';

const maria = { firstName: 'Maria', lastName: 'Lopez', dob: '1984-03-02' };
const on = new Date(2026, 10, 21);

describe('patient derived fields', () => {
  it('joins first and last name', () => {
    expect(fullName(maria)).toBe('Maria Lopez');
  });
  it('adds the age in parentheses', () => {
    expect(age(maria, on)).toBe(42);
    expect(fullNameWithAge(maria, on)).toBe('Maria Lopez (42)');
    expect(fullNameWithAge({ firstName: 'Ann', lastName: 'Lee' }, on)).toBe('Ann Lee');
  });
  it('prefers the chosen names and falls back to the first name', () => {
    expect(preferredName({ ...maria, chosenFirstName: 'Mari' })).toBe('Mari');
    expect(preferredName({ ...maria, chosenFirstName: 'Mari', chosenLastName: 'Lo' })).toBe('Mari Lo');
    expect(preferredName({ ...maria, chosenFirstName: '  ' })).toBe('Maria');
  });
  it('shows the date of birth as MM/DD/YYYY', () => {
    expect(dobString(maria)).toBe('03/02/1984');
    expect(dobString({})).toBe('');
  });
  it('uses the mobile phone when no primary number is set', () => {
    const phones = [
      { type: 'home' as const, number: '+15550100001' },
      { type: 'mobile' as const, number: '+15550100002' },
    ];
    expect(primaryPhone({ phones })).toBe('+15550100002');
    expect(primaryPhone({ phones, primaryPhoneNumber: '+15550100003' })).toBe('+15550100003');
  });
  it('shows archived membership as hidden', () => {
    expect(membershipDisplayStatus({ membershipStatus: 'archived' })).toBe('hidden');
    expect(membershipDisplayStatus({ membershipStatus: 'active' })).toBe('active');
  });
});
