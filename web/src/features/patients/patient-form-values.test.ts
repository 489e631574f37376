import { describe, expect, it } from 'vitest';
import { PatientInput, type Patient } from '../../../../shared/patients/patient-schema.js';
import { zodFieldErrors } from '../../lib/zod-field-errors.js';
import { EMPTY_PATIENT_FORM, formErrorsFromFieldErrors, formStateFromPatient, requestDraftFromForm } from './patient-form-values.js';

const typed = {
  ...EMPTY_PATIENT_FORM,
  firstName: 'Marisol',
  lastName: 'Quill',
  dob: '1/5/1990',
  gender: 'female',
  homePhone: '(512) 555-0177',
  workPhone: '512.555.0178',
  addressLine1: '77 Riverside Dr',
};

describe('patient form values', () => {
  it('builds the API body: ISO date, phones by type, first phone as primary', () => {
    const { body } = requestDraftFromForm(typed);
    expect(body.dob).toBe('1990-01-05');
    expect(body.phones).toEqual([
      { type: 'home', number: '(512) 555-0177' },
      { type: 'work', number: '512.555.0178' },
    ]);
    expect(body.primaryPhoneNumber).toBe('(512) 555-0177');
    expect(body.address?.line1).toBe('77 Riverside Dr');
  });

  it("puts the shared schema's messages under the fields that caused them", () => {
    const draft = requestDraftFromForm({ ...typed, dob: '01/15/2090', gender: null });
    const parsed = PatientInput.safeParse(draft.body);
    expect(parsed.success).toBe(false);

    const errors = formErrorsFromFieldErrors(zodFieldErrors(parsed.error!), draft);

    expect(errors.fields.dob).toBe('Date of birth cannot be after today');
    expect(errors.fields.gender).toBe('Invalid gender');
    // The work phone is the second entry of `phones`; its rule names the allowed characters.
    expect(errors.fields.workPhone).toMatch(/digits, parentheses, hyphen and space/);
    expect(errors.other).toEqual([]);
  });

  it('maps server field paths and keeps unknown ones as form-level messages', () => {
    const draft = requestDraftFromForm(typed);
    const errors = formErrorsFromFieldErrors(
      { 'address.line1': 'Address Line 1 is required', primaryPhoneNumber: 'Primary phone number is required', id: 'Patient id taken' },
      draft,
    );
    expect(errors.fields).toEqual({ addressLine1: 'Address Line 1 is required', homePhone: 'Primary phone number is required' });
    expect(errors.other).toEqual(['Patient id taken']);
  });

  it('shows a stored patient in the form as typed values', () => {
    const patient: Patient = {
      id: 'pat-1',
      firstName: 'Grace',
      lastName: 'Nakamura',
      dob: '1943-10-05',
      gender: 'female',
      phones: [{ type: 'mobile', number: '+14155550111' }],
      primaryPhoneNumber: '+14155550111',
      address: { line1: '2500 Clement St', city: 'San Francisco', state: 'CA', zip: '94121' },
      membershipStatus: 'active',
      status: 'active',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    };
    const form = formStateFromPatient(patient);
    expect(form).toMatchObject({ dob: '10/05/1943', mobilePhone: '(415) 555-0111', city: 'San Francisco', gender: 'female' });
    expect(PatientInput.safeParse(requestDraftFromForm(form).body).success).toBe(true);
  });
});
