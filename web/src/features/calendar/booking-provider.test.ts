import { describe, expect, it } from 'vitest';
import { providerDefault } from './booking-provider.js';

const users = [
  { userId: 'u-front', permissionGroup: 'employee', name: 'Maya Front' },
  { userId: 'u-park', permissionGroup: 'provider', name: 'Ada Park' },
  { userId: 'u-okafor', permissionGroup: 'provider', name: 'Daniel Okafor' },
  { userId: 'u-gone', permissionGroup: 'provider', userStatus: 'deleted', name: 'Old Doc' },
];

describe("a new booking's provider", () => {
  it("is the patient's primary provider when that names one of the practice's providers", () => {
    expect(providerDefault(users, 'Dr. Ada Park', 'u-front')).toBe('u-park');
    expect(providerDefault(users, 'daniel okafor', 'u-park')).toBe('u-okafor');
  });
  it('is never the signed-in front desk: without a known primary provider it must be chosen', () => {
    expect(providerDefault(users, undefined, 'u-front')).toBeNull();
    expect(providerDefault(users, 'Someone Elsewhere', 'u-front')).toBeNull();
    expect(providerDefault(users, 'Old Doc', 'u-front')).toBeNull();
  });
  it('is the signed-in provider when the patient names none', () => {
    expect(providerDefault(users, undefined, 'u-okafor')).toBe('u-okafor');
  });
});
