import { beforeEach, describe, expect, it } from 'vitest';
import {
  accessToken,
  doseSpotPhone,
  doseSpotSsoUrl,
  forgetDoseSpotTokens,
  listPrescriptions,
  parseDoseSpotConfig,
  pushPatient,
  randomPhrase,
  ssoParams,
  toExternalPrescription,
} from './dosespot.js';
import type { HttpExchange } from './sms-carrier.js';

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
    const url = doseSpotSsoUrl('https://my.staging.dosespot.com/', {
      clinicId: '30871',
      clinicKey: CLINIC_KEY,
      doseSpotUserId: USER_ID,
      doseSpotPatientId: '77',
      phrase: PHRASE,
    });
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
    expect(parseDoseSpotConfig(JSON.stringify({ clinicId: '1', clinicKey: 'k', users: { u1: '9', bad: 3 } }))).toEqual({
      clinicId: '1',
      clinicKey: 'k',
      users: { u1: '9' },
    });
    expect(parseDoseSpotConfig(JSON.stringify({ clinicId: '1', clinicKey: 'k', subscriptionKey: 's', users: {} }))).toEqual({
      clinicId: '1',
      clinicKey: 'k',
      subscriptionKey: 's',
      users: {},
    });
    // The clinic-level user of the scheduled sync, given as DoseSpot shows it (a number) or as text.
    expect(parseDoseSpotConfig(JSON.stringify({ clinicId: '1', clinicKey: 'k', clinicUserId: 4021, users: {} }))?.clinicUserId).toBe('4021');
    expect(parseDoseSpotConfig(JSON.stringify({ clinicId: '1', clinicKey: 'k', clinicUserId: ' 4021 ', users: {} }))?.clinicUserId).toBe('4021');
    expect(parseDoseSpotConfig(JSON.stringify({ clinicId: '1', clinicKey: 'k', clinicUserId: '', users: {} }))).not.toHaveProperty('clinicUserId');
    expect(parseDoseSpotConfig(JSON.stringify({ clinicId: '1' }))).toBeNull();
    expect(parseDoseSpotConfig('not json')).toBeNull();
    expect(parseDoseSpotConfig(null)).toBeNull();
  });
});

const AUTH = { clinicId: '30871', clinicKey: CLINIC_KEY, subscriptionKey: 'sub-key-1', doseSpotUserId: USER_ID };
/** DoseSpot's token answer, as its authentication guide documents it. */
const TOKEN = {
  access_token: 'eyJ.token.one',
  token_type: 'bearer',
  expires_in: 600,
  userName: USER_ID,
  '.issued': 'Thu, 26 Nov 2026 10:00:00 GMT',
  '.expires': 'Thu, 26 Nov 2026 10:10:00 GMT',
};

/** Records every call; answers the token endpoint, then `answer` for the API. */
function exchangeWith(answer: (url: string, init: Parameters<HttpExchange>[1]) => { status: number; body: string }) {
  const calls: { url: string; method: string; headers: Record<string, string>; body: string }[] = [];
  const exchange: HttpExchange = async (url, init) => {
    calls.push({ url, method: init.method, headers: init.headers as Record<string, string>, body: init.body });
    if (url.endsWith('/webapi/v2/connect/token')) return { status: 200, body: JSON.stringify(TOKEN) };
    return answer(url, init);
  };
  return { calls, exchange };
}

describe('DoseSpot API v2 access token', () => {
  beforeEach(() => forgetDoseSpotTokens());

  it('asks for a password-grant token for the DoseSpot user with the subscription key, and reuses it until a minute before it expires', async () => {
    const { calls, exchange } = exchangeWith(() => ({ status: 500, body: '' }));
    const t0 = Date.parse('2026-11-26T10:00:00Z');
    expect(await accessToken('https://my.staging.dosespot.com/', AUTH, exchange, t0)).toBe('eyJ.token.one');
    expect(calls[0]).toMatchObject({ url: 'https://my.staging.dosespot.com/webapi/v2/connect/token', method: 'POST' });
    expect(calls[0]!.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', 'Subscription-Key': 'sub-key-1' });
    expect(Object.fromEntries(new URLSearchParams(calls[0]!.body))).toEqual({
      grant_type: 'password',
      client_id: '30871',
      client_secret: CLINIC_KEY,
      username: USER_ID,
      password: CLINIC_KEY,
      scope: 'api',
    });
    await accessToken('https://my.staging.dosespot.com/', AUTH, exchange, t0 + 530_000);
    expect(calls).toHaveLength(1);
    await accessToken('https://my.staging.dosespot.com/', AUTH, exchange, t0 + 541_000);
    expect(calls).toHaveLength(2);
  });

  it("refuses with DoseSpot's own error description", async () => {
    const refuse: HttpExchange = async () => ({
      status: 400,
      body: JSON.stringify({ error: 'invalid_grant', error_description: 'The user name or password is incorrect.' }),
    });
    await expect(accessToken('https://ds.example', AUTH, refuse)).rejects.toThrow('HTTP 400 (The user name or password is incorrect.)');
  });
});

describe('DoseSpot API v2 patients', () => {
  beforeEach(() => forgetDoseSpotTokens());

  it('adds the patient with the bearer token and the fields DoseSpot requires, and returns their DoseSpot PatientId', async () => {
    const { calls, exchange } = exchangeWith(() => ({ status: 201, body: JSON.stringify({ Id: 4411, Result: { ResultCode: 'OK', ResultDescription: '' } }) }));
    const id = await pushPatient(
      'https://ds.example/',
      AUTH,
      {
        id: 'pat_1',
        firstName: 'Maria',
        lastName: 'Lopez',
        dateOfBirth: '1984-03-02',
        gender: 'female',
        address: { line1: '12 Harbor St', city: 'Portland', state: 'ME', zip: '04101' },
        phone: '+12075550142',
        phoneType: 'mobile',
      },
      exchange,
    );
    expect(id).toBe('4411');
    const call = calls[1]!;
    expect(call).toMatchObject({ url: 'https://ds.example/webapi/v2/api/patients', method: 'POST' });
    expect(call.headers).toMatchObject({ authorization: 'Bearer eyJ.token.one', 'Subscription-Key': 'sub-key-1', 'content-type': 'application/json' });
    expect(JSON.parse(call.body)).toEqual({
      NonDoseSpotMedicalRecordNumber: 'pat_1',
      FirstName: 'Maria',
      LastName: 'Lopez',
      DateOfBirth: '1984-03-02',
      Gender: 'Female',
      Address1: '12 Harbor St',
      City: 'Portland',
      State: 'ME',
      ZipCode: '04101',
      PrimaryPhone: '207-555-0142',
      PrimaryPhoneType: 2,
      Active: true,
    });
  });

  it('treats ResultCode ERROR as a refusal even with HTTP 200, and an HTTP error as one', async () => {
    const { exchange } = exchangeWith(() => ({
      status: 200,
      body: JSON.stringify({ Id: 0, Result: { ResultCode: 'ERROR', ResultDescription: 'ZipCode is invalid' } }),
    }));
    await expect(pushPatient('https://ds.example', AUTH, { id: 'p', firstName: 'a', lastName: 'b', dateOfBirth: '2000-01-01' }, exchange)).rejects.toThrow(
      'ZipCode is invalid',
    );
    const { exchange: down } = exchangeWith(() => ({ status: 401, body: '' }));
    await expect(pushPatient('https://ds.example', AUTH, { id: 'p', firstName: 'a', lastName: 'b', dateOfBirth: '2000-01-01' }, down)).rejects.toThrow(
      'HTTP 401',
    );
  });

  it('writes a US number as DoseSpot validates it', () => {
    expect(doseSpotPhone('+12075550142')).toBe('207-555-0142');
    expect(doseSpotPhone('2075550142')).toBe('207-555-0142');
    expect(doseSpotPhone('+442071234567')).toBeUndefined();
    expect(doseSpotPhone(null)).toBeUndefined();
  });
});

describe('DoseSpot API v2 prescriptions', () => {
  beforeEach(() => forgetDoseSpotTokens());

  it("lists every page of a patient's prescriptions and maps them to the external-prescription fields", async () => {
    const { calls, exchange } = exchangeWith((url) => {
      const page = Number(new URL(url).searchParams.get('pageNumber'));
      const item =
        page === 1
          ? {
              PrescriptionId: 901,
              DisplayName: ' Lisinopril 10 mg tablet ',
              Quantity: '30',
              Refills: '2',
              DaysSupply: 30,
              Directions: 'Take one daily',
              WrittenDate: '2026-11-26T10:00:00Z',
              NDC: '',
              PrescriberId: 227295,
              PrescriberName: 'Dr Okafor',
              NoSubstitutions: false,
            }
          : { PrescriptionId: 902, DisplayName: 'Metformin 500 mg tablet' };
      return {
        status: 200,
        body: JSON.stringify({
          Items: [item],
          Result: { ResultCode: 'OK', ResultDescription: '' },
          PageResult: { CurrentPage: page, TotalPages: 2, PageSize: 1, TotalCount: 2, HasPrevious: page > 1, HasNext: page < 2 },
        }),
      };
    });
    const items = await listPrescriptions('https://ds.example', AUTH, '77', exchange);
    expect(calls.slice(1).map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET https://ds.example/webapi/v2/api/patients/77/prescriptions?pageNumber=1',
      'GET https://ds.example/webapi/v2/api/patients/77/prescriptions?pageNumber=2',
    ]);
    expect(calls[1]!.headers).toMatchObject({ authorization: 'Bearer eyJ.token.one', 'Subscription-Key': 'sub-key-1' });
    expect(items.map((i) => i.PrescriptionId)).toEqual([901, 902]);
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
    const { exchange: down } = exchangeWith(() => ({ status: 401, body: '' }));
    await expect(listPrescriptions('https://ds.example', AUTH, '7', down)).rejects.toThrow('HTTP 401');
  });
});
