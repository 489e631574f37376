import { describe, expect, it } from 'vitest';
import { canBePrescriber, isCalendarDate, isExpiredMonth, isPrescribable, maySignPrescription, prescriberChoices, type PrescriberCandidate } from './rx.js';
import { rxProblem } from './rx-schema.js';

const user = (name: string, extra: Partial<PrescriberCandidate> = {}): PrescriberCandidate => ({
  userId: name.toLowerCase(),
  name,
  permissionGroup: 'provider',
  userStatus: 'active',
  ...extra,
});

describe('the prescription selector', () => {
  const on = new Date(2026, 10, 26);
  it('leaves out items expired before the current month, hidden items and items without NDC', () => {
    expect(isExpiredMonth('10/2026', on)).toBe(true);
    expect(isExpiredMonth('11/2026', on)).toBe(false);
    expect(isExpiredMonth('01/2027', on)).toBe(false);
    expect(isPrescribable({ isHidden: false, ndcNumber: '0093-3109-01', expirationDate: '11/2026' }, on)).toBe(true);
    expect(isPrescribable({ isHidden: true, ndcNumber: '0093-3109-01', expirationDate: null }, on)).toBe(false);
    expect(isPrescribable({ isHidden: false, ndcNumber: ' ', expirationDate: null }, on)).toBe(false);
    expect(isPrescribable({ isHidden: false, ndcNumber: '0093-3109-01', expirationDate: '12/2025' }, on)).toBe(false);
  });
});

describe('prescribers', () => {
  it('are users with an NPI or a Provider, PA or PASupervised type, at most 3, the patient’s practitioner first', () => {
    const users = [
      user('Zed', { npiNumber: '1234567890' }),
      user('Amy', { veradigmUserType: 'PA' }),
      user('Bob', { veradigmUserType: 'StaffUser', npiNumber: '1234567890' }),
      user('Cal', { veradigmUserType: 'POBAllReview' }),
      user('Dee', { npiNumber: '1234567890', permissionGroup: 'employee' }),
      user('Eve', { veradigmUserType: 'Provider', userStatus: 'deleted' }),
      user('Fay', { veradigmUserType: 'PASupervised' }),
      user('Gus', { veradigmUserType: 'Provider' }),
    ];
    expect(prescriberChoices(users).map((u) => u.name)).toEqual(['Amy', 'Fay', 'Gus']);
    expect(prescriberChoices(users, 'zed').map((u) => u.name)).toEqual(['Zed', 'Amy', 'Fay']);
    expect(canBePrescriber(user('X', { veradigmUserType: 'POBNoReview' }))).toBe(false);
  });

  it('a StaffUser may not sign; a user without a type needs an NPI', () => {
    expect(maySignPrescription({ veradigmUserType: 'StaffUser', npiNumber: '1234567890' })).toBe(false);
    expect(maySignPrescription({ veradigmUserType: 'POBAllReview' })).toBe(true);
    expect(maySignPrescription({ veradigmUserType: null, npiNumber: null })).toBe(false);
    expect(maySignPrescription({ veradigmUserType: null, npiNumber: '1234567890' })).toBe(true);
  });
});

describe('the Rx fields', () => {
  const ok = { inventoryId: 'i', providerId: 'p', quantityPrescribed: 1, daysOfTreatment: 1, numberOfRefills: 0, instructions: '', frequency: 'Daily' };
  it('accept the minimums and real mm/dd/yyyy dates only', () => {
    expect(rxProblem(ok)).toBeNull();
    expect(rxProblem({ ...ok, datePrescribed: '02/29/2028' })).toBeNull();
    expect(rxProblem({ ...ok, datePrescribed: '02/29/2027' })).toEqual({
      message: 'Date prescribed must be a date in mm/dd/yyyy format',
      field: 'datePrescribed',
    });
    expect(isCalendarDate('13/01/2026')).toBe(false);
    expect(rxProblem({ ...ok, quantityPrescribed: 1.5 })?.message).toBe('Quantity must be at least 1');
    expect(rxProblem({ ...ok, frequency: '   ' })?.message).toBe('Frequency is required');
  });
});
