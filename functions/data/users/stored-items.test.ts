import { describe, expect, it } from 'vitest';
import { newPracticeItem } from '../../../scripts/practice/first-admin.js';
import { practiceItem, userItem } from '../../../infra/local/seed/seed-practice.js';
import { practiceFromItem } from '../practices/practice-repository.js';
import { userFromItem } from './user-repository.js';

describe('stored practice and user items', () => {
  it('reads a first-admin practice item, which has no phone, logo or lock time, with their defaults', () => {
    expect(practiceFromItem(newPracticeItem('p-1', 'Harbor Clinic', '2026-01-01T00:00:00.000Z'))).toEqual({
      practiceId: 'p-1',
      practiceName: 'Harbor Clinic',
      productDeactivatedAt: null,
      additionalPhoneNumbers: [],
      featureFlags: {},
      idleLockMinutes: 15,
    });
  });

  it('reads the seeded practice with its phone and flags, and a cleared phone or logo as not set', () => {
    const seeded = practiceFromItem(practiceItem({ practiceId: 'p-1', practiceName: 'Demo' }, '2026-01-01T00:00:00.000Z'));
    expect(seeded.phoneNumber).toBe('+15415550100');
    expect(seeded.featureFlags.ai_streaming).toBe(true);
    const cleared = practiceFromItem({ practiceId: 'p-1', sk: 'PRACTICE', practiceName: 'Demo', phoneNumber: null, base64Logo: '' });
    expect(cleared.phoneNumber).toBeUndefined();
    expect(cleared.base64Logo).toBeUndefined();
  });

  it('reads a seeded user, who has no DoseSpot id, and an item with only its key and role, by the name its fields give', () => {
    expect(userFromItem(userItem('p-1', 'u-1', { email: 'a@x.test', firstName: 'Ada', lastName: 'Lee', group: 'provider' }, 'now'))).toMatchObject({
      userId: 'u-1',
      name: 'Ada Lee',
      permissionGroup: 'provider',
      userStatus: 'active',
      doseSpotUserId: null,
    });
    expect(userFromItem({ practiceId: 'p-1', sk: 'USER#u-2', permissionGroup: 'admin', firstName: 'Bo', lastName: 'Park' })).toEqual({
      userId: 'u-2',
      firstName: 'Bo',
      lastName: 'Park',
      name: 'Bo Park',
      emailAddress: '',
      cellNumber: null,
      userStatus: 'active',
      educationDegree: null,
      npiNumber: null,
      permissionGroup: 'admin',
      createdAt: '',
      veradigmUserType: null,
      doseSpotUserId: null,
    });
  });

  it('names the item, never its values, when a stored user does not fit', () => {
    expect(() => userFromItem({ practiceId: 'p-1', sk: 'USER#u-3', permissionGroup: 'owner', emailAddress: 'secret@x.test' })).toThrow(
      /^Stored user item USER#u-3 does not fit its schema: permissionGroup$/,
    );
  });
});
