import { describe, expect, it } from 'vitest';
import { doseSpotSsoUrl, listPrescriptions, parseDoseSpotConfig, pushPatient, randomPhrase, ssoParams, toExternalPrescription } from './dosespot.js';

// Worked example computed apart from this code (Python hashlib + base64, '==' stripped, quote(safe='')).
const PHRASE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const CLINIC_KEY = 'KEY9QSSHWKUSNMSUQ5TUKFYCNSDC744YY';
const USER_ID = '227295';
const CODE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123458WZMUxw6ENUHY9NAELGdPrB3YA9Of0+zuFCoS5LpNwTDM74639cl9Rj/Oi82hRdjqPYW7ZJXJC/fsS49dcA1Ew';
const VERIFY = 'BYp16CfSEOEZFGWwhyWTGs4X/nICpN68qfUH8p/8jksGOc+7WEwJfwrz0vmBhRkpGXHZAamfMeiSurpamMKjFw';
const CODE_ENCODED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123458WZMUxw6ENUHY9NAELGdPrB3YA9Of0%2BzuFCoS5LpNwTDM74639cl9Rj%2FOi82hRdjqPYW7ZJXJC%2FfsS49dcA1Ew';
const VERIFY_ENCODED = 'BYp16CfSEOEZFGWwhyWTGs4X%2FnICpN68qfUH8p%2F8jksGOc%2B7WEwJfwrz0vmBhRkpGXHZAamfMeiSurpamMKjFw';

describe('DoseSpot single sign-on', () => {
  it('builds the code and user id verification of the worked example', () => {
    const p = ssoParams({ clinicId: '30871', clinicKey: CLINIC_KEY, doseSpotUserId: USER_ID, phrase: PHRASE });
    expect(p.get('SingleSignOnCode')).toBe(CODE);
    expect(p.get('SingleSignOnUserIdVerify')).toBe(VERIFY);
    expect(p.get('SingleSignOnPhraseLength')).toBe('32');
    expect(p.has('PatientId')).toBe(false);
  });

  it('puts every parameter URL-encoded into the login URL, with the patient when given', () => {
    const url = doseSpotSsoUrl('https://my.staging.dosespot.com/', { clinicId: '30871', clinicKey: CLINIC_KEY, doseSpotUserId: USER_ID, doseSpotPatientId: '77', phrase: PHRASE });
    expect(url).toBe(
      `https://my.staging.dosespot.com/LoginSingleSignOn.aspx?SingleSignOnClinicId=30871&SingleSignOnUserId=227295&SingleSignOnPhraseLength=32&SingleSignOnCode=${CODE_ENCODED}&SingleSignOnUserIdVerify=${VERIFY_ENCODED}&PatientId=77`,
    );
  });

  it('makes a fresh 32-character phrase each time', () => {
    const a = randomPhrase();
    expect(a).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(randomPhrase()).not.toBe(a);
    expect(() => ssoParams({ clinicId: '1', clinicKey: CLINIC_KEY, doseSpotUserId: '2', phrase: 'short' })).toThrow();
  });

  it('reads the clinic settings from the partner secret entry, refusing an incomplete one', () => {
    expect(parseDoseSpotConfig(JSON.stringify({ clinicId: '1', clinicKey: 'k', users: { u1: '9', bad: 3 } }))).toEqual({ clinicId: '1', clinicKey: 'k', users: { u1: '9' } });
    expect(parseDoseSpotConfig(JSON.stringify({ clinicId: '1' }))).toBeNull();
    expect(parseDoseSpotConfig('not json')).toBeNull();
    expect(parseDoseSpotConfig(null)).toBeNull();
  });

  it('sends the patient signed with the single sign-on parameters and returns their DoseSpot id', async () => {
    const calls: { url: string; body: string }[] = [];
    const id = await pushPatient(
      'https://ds.example/',
      { clinicId: '30871', clinicKey: CLINIC_KEY, doseSpotUserId: USER_ID, phrase: PHRASE },
      { id: 'pat_1', firstName: 'Maria', lastName: 'Lopez', dateOfBirth: '1984-03-02', gender: 'female' },
      async (url, init) => {
        calls.push({ url, body: init.body });
        return { status: 201, body: JSON.stringify({ Id: 4411 }) };
      },
    );
    expect(id).toBe('4411');
    expect(calls[0]!.url).toContain(`https://ds.example/api/patients?SingleSignOnClinicId=30871&SingleSignOnUserId=227295`);
    expect(calls[0]!.url).toContain(`SingleSignOnUserIdVerify=${VERIFY_ENCODED}`);
    expect(JSON.parse(calls[0]!.body)).toMatchObject({ NonDoseSpotMedicalRecordNumber: 'pat_1', FirstName: 'Maria', LastName: 'Lopez', DateOfBirth: '1984-03-02' });
    await expect(pushPatient('https://ds.example', { clinicId: '1', clinicKey: CLINIC_KEY, doseSpotUserId: '2' }, { id: 'p', firstName: 'a', lastName: 'b', dateOfBirth: 'c' }, async () => ({ status: 401, body: '' }))).rejects.toThrow(
      'HTTP 401',
    );
  });
});

describe('DoseSpot prescriptions', () => {
  it("lists a patient's prescriptions with the signed query and maps them to the external-prescription fields", async () => {
    let called = '';
    const items = await listPrescriptions('https://ds.example', { clinicId: '30871', clinicKey: CLINIC_KEY, doseSpotUserId: USER_ID, phrase: PHRASE }, '77', async (url, init) => {
      called = `${init.method} ${url}`;
      return { status: 200, body: JSON.stringify({ Items: [{ PrescriptionId: 901, DisplayName: ' Lisinopril 10 mg tablet ', Quantity: '30', Refills: '2', DaysSupply: 30, Directions: 'Take one daily', WrittenDate: '2026-11-26T10:00:00Z', NDC: '', PrescriberId: 227295, PrescriberName: 'Dr Okafor', NoSubstitutions: false }] }) };
    });
    expect(called).toMatch(/^GET https:\/\/ds\.example\/api\/patients\/77\/prescriptions\?SingleSignOnClinicId=30871&/);
    expect(toExternalPrescription(items[0]!)).toEqual({
      id: '901',
      medicationName: 'Lisinopril 10 mg tablet',
      quantityPrescribed: 30,
      numberOfRefills: 2,
      daysOfTreatment: 30,
      instructions: 'Take one daily',
      datePrescribed: '2026-11-26T10:00:00Z',
      noSubstitutions: false,
      providerId: '227295',
      providerName: 'Dr Okafor',
    });
    expect(toExternalPrescription({ PrescriptionId: 'x', DisplayName: 'A', Quantity: 'lots', Refills: '1.5' })).toEqual({ id: 'x', medicationName: 'A' });
    await expect(listPrescriptions('https://ds.example', { clinicId: '1', clinicKey: CLINIC_KEY, doseSpotUserId: '2' }, '7', async () => ({ status: 401, body: '' }))).rejects.toThrow('HTTP 401');
  });
});

