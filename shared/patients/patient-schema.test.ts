import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { zodFieldErrorsOf } from './test-field-errors.js';
import { PatientFullInput, PatientInput, PatientListQuery, unsupportedCharacterMessage } from './patient-schema.js';

const valid = { firstName: 'Maria', lastName: 'Lopez', gender: 'female', dob: '1984-03-02' };
const errorsOf = (schema: typeof PatientInput | typeof PatientFullInput, value: unknown) => zodFieldErrorsOf(schema.safeParse(value));

describe('PatientInput (spec chart-data §5)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(2026, 10, 21, 12));
  });
  afterEach(() => vi.useRealTimers());

  it('accepts a minimal patient and drops unknown fields', () => {
    const r = PatientInput.safeParse({ ...valid, status: 'DELETED', practiceId: 'other' });
    expect(r.success).toBe(true);
    expect(r.data).toEqual(valid);
  });

  it('requires first and last name, at most 35 characters', () => {
    expect(errorsOf(PatientInput, { gender: 'male' })).toMatchObject({ firstName: 'First Name is required', lastName: 'Last Name is required' });
    expect(errorsOf(PatientInput, { ...valid, firstName: '  ' })).toEqual({ firstName: 'First Name is required' });
    expect(errorsOf(PatientInput, { ...valid, lastName: 'x'.repeat(36) })).toEqual({ lastName: 'Last Name must be at most 35 characters' });
    expect(errorsOf(PatientInput, { ...valid, middleName: 'x'.repeat(36) })).toEqual({ middleName: 'Middle Name must be at most 35 characters' });
    expect(PatientInput.safeParse({ ...valid, firstName: 'x'.repeat(35) }).success).toBe(true);
  });

  it('names the field on a wrong type', () => {
    expect(errorsOf(PatientInput, { ...valid, firstName: 42 })).toEqual({ firstName: 'First Name must be text' });
  });

  it('bounds the date of birth with the spec messages', () => {
    expect(errorsOf(PatientInput, { ...valid, dob: '2026-11-22' })).toEqual({ dob: 'Date of birth cannot be after today' });
    expect(PatientInput.safeParse({ ...valid, dob: '2026-11-21' }).success).toBe(true);
    expect(errorsOf(PatientInput, { ...valid, dob: '1899-12-31' })).toEqual({ dob: 'Date of birth must be after 1900' });
    expect(PatientInput.safeParse({ ...valid, dob: '1900-01-01' }).success).toBe(true);
    expect(errorsOf(PatientInput, { ...valid, dob: '1984-02-30' })).toEqual({ dob: 'Date of birth is not valid' });
  });

  it('requires gender to be male, female or other', () => {
    expect(errorsOf(PatientInput, { ...valid, gender: 'unknown' })).toEqual({ gender: 'Invalid gender' });
    const { gender: _omit, ...noGender } = valid;
    expect(errorsOf(PatientInput, noGender)).toEqual({ gender: 'Invalid gender' });
    for (const g of ['male', 'female', 'other']) expect(PatientInput.safeParse({ ...valid, gender: g }).success).toBe(true);
  });

  it('limits email to 80, id to 35, address lines and city to 35, state and zip to 10', () => {
    const email = `${'a'.repeat(70)}@example.com`;
    expect(errorsOf(PatientInput, { ...valid, email })).toEqual({ email: 'Email must be at most 80 characters' });
    expect(errorsOf(PatientInput, { ...valid, id: 'p'.repeat(36) })).toEqual({ id: 'Patient id must be at most 35 characters' });
    expect(
      errorsOf(PatientInput, {
        ...valid,
        address: { line1: 'x'.repeat(36), line2: 'x'.repeat(36), city: 'x'.repeat(36), state: 'x'.repeat(11), zip: '1'.repeat(11) },
      }),
    ).toEqual({
      'address.line1': 'Address Line 1 must be at most 35 characters',
      'address.line2': 'Address Line 2 must be at most 35 characters',
      'address.city': 'City must be at most 35 characters',
      'address.state': 'State must be at most 10 characters',
      'address.zip': 'Zip Code must be at most 10 characters',
    });
  });

  it('accepts only the e-prescribing characters in names, naming the field', () => {
    expect(errorsOf(PatientInput, { ...valid, firstName: 'María' })).toEqual({ firstName: unsupportedCharacterMessage('First Name') });
    expect(errorsOf(PatientInput, { ...valid, lastName: 'Lopez😀' })).toEqual({ lastName: unsupportedCharacterMessage('Last Name') });
    expect(unsupportedCharacterMessage('Last Name')).toBe(
      'Unsupported character found in the e-prescribing system\'s patient field "Last Name". Supported characters are letters, digits, space and !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
    );
    expect(PatientInput.safeParse({ ...valid, lastName: `O'Brien-Li Jr. (2) [x]{y}~\\^_\`|` }).success).toBe(true);
  });

  it('normalises phones to +1 and rejects other characters', () => {
    const r = PatientInput.parse({ ...valid, phones: [{ type: 'mobile', number: '(555) 010-1234' }], primaryPhoneNumber: '555 010 1234' });
    expect(r.phones).toEqual([{ type: 'mobile', number: '+15550101234' }]);
    expect(r.primaryPhoneNumber).toBe('+15550101234');
    expect(errorsOf(PatientInput, { ...valid, phones: [{ type: 'mobile', number: '555.010.1234' }] })).toEqual({
      'phones.0.number': 'Phone number may contain only digits, parentheses, hyphen and space',
    });
    expect(errorsOf(PatientInput, { ...valid, primaryPhoneNumber: '555-0101' })).toEqual({ primaryPhoneNumber: 'Phone number must have 10 digits' });
  });
});

describe('PatientFullInput (full validation)', () => {
  it('makes the address and primary phone number mandatory with the spec messages', () => {
    expect(errorsOf(PatientFullInput, { ...valid })).toEqual({
      'address.line1': 'Address Line 1 is required',
      'address.city': 'City is required',
      'address.state': 'State is required',
      'address.zip': 'Zip Code is required',
      primaryPhoneNumber: 'Primary phone number is required',
    });
  });
  it('reports the base rules alongside', () => {
    expect(
      errorsOf(PatientFullInput, { lastName: 'Lopez', gender: 'female', address: { line1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' } }),
    ).toEqual({
      firstName: 'First Name is required',
      primaryPhoneNumber: 'Primary phone number is required',
    });
  });
  it('limits the primary phone number to 35 characters', () => {
    const full = { ...valid, address: { line1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' } };
    expect(errorsOf(PatientFullInput, { ...full, primaryPhoneNumber: '1'.repeat(36) })).toEqual({
      primaryPhoneNumber: 'Primary phone number must be at most 35 characters',
    });
    expect(PatientFullInput.parse({ ...full, primaryPhoneNumber: '(555) 010-1234' }).primaryPhoneNumber).toBe('+15550101234');
  });
});

describe('PatientListQuery', () => {
  it('defaults to the spec page of 100 active patients', () => {
    expect(PatientListQuery.parse({})).toEqual({ limit: 100, offset: 0, status: 'active' });
  });
  it('parses strings and rejects bad values', () => {
    expect(PatientListQuery.parse({ limit: '5', offset: '10', status: 'DELETED', q: ' 555 ' })).toEqual({ limit: 5, offset: 10, status: 'DELETED', q: '555' });
    expect(PatientListQuery.safeParse({ limit: 'abc' }).success).toBe(false);
    expect(PatientListQuery.safeParse({ status: 'archived' }).success).toBe(false);
  });
});
