/**
 * DoseSpot publishes no client library or machine-readable description; its API help pages are the
 * oracle. AddEditPatientRequest, field for field as published on
 * https://my.staging.dosespot.com/webapi/Help/Api/POST-api-patients-patientId (the body of
 * POST api/patients and POST api/patients/{patientId}): name, whether it is required, its type and
 * its string length. The patient body the adapter builds must name only those fields, carry every
 * required one, and keep every string within its length; the local stand-in must refuse what
 * DoseSpot refuses.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalDoseSpot, LOCAL_DOSESPOT_PREFIX } from '../../../infra/local/dosespot/local-dosespot.js';
import { doseSpotPatientBody, DoseSpotApiError, forgetDoseSpotTokens, pushPatient, type DoseSpotPatient } from './dosespot.js';

type Field = {
  type: 'string' | 'date' | 'GenderType' | 'PhoneTypes' | 'decimal' | 'WeightUnitItem' | 'HeightUnitItem' | 'boolean';
  required?: true;
  max?: number;
};
/** AddEditPatientRequest as the help page lists it. */
const ADD_EDIT_PATIENT_REQUEST: Record<string, Field> = {
  Prefix: { type: 'string', max: 10 },
  FirstName: { type: 'string', required: true, max: 35 },
  MiddleName: { type: 'string', max: 35 },
  LastName: { type: 'string', required: true, max: 35 },
  Suffix: { type: 'string', max: 10 },
  DateOfBirth: { type: 'date', required: true },
  Gender: { type: 'GenderType', required: true },
  Email: { type: 'string', max: 80 },
  Address1: { type: 'string', required: true, max: 35 },
  Address2: { type: 'string', max: 35 },
  City: { type: 'string', required: true, max: 35 },
  State: { type: 'string', required: true, max: 50 },
  ZipCode: { type: 'string', required: true, max: 10 },
  PhoneAdditional1: { type: 'string', max: 25 },
  PhoneAdditional2: { type: 'string', max: 25 },
  PhoneAdditionalType1: { type: 'PhoneTypes' },
  PhoneAdditionalType2: { type: 'PhoneTypes' },
  PrimaryPhone: { type: 'string', required: true, max: 25 },
  PrimaryPhoneType: { type: 'PhoneTypes', required: true },
  Weight: { type: 'decimal' },
  WeightMetric: { type: 'WeightUnitItem' },
  Height: { type: 'decimal' },
  HeightMetric: { type: 'HeightUnitItem' },
  NonDoseSpotMedicalRecordNumber: { type: 'string', max: 35 },
  Active: { type: 'boolean', required: true },
  Encounter: { type: 'string', max: 50 },
  IsHospice: { type: 'boolean' },
};

function againstHelpPage(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    const field = ADD_EDIT_PATIENT_REQUEST[name];
    if (!field) problems.push(`${name} is not a field of AddEditPatientRequest`);
    else if (field.type === 'string' && (typeof value !== 'string' || value.length > field.max!))
      problems.push(`${name} is not a string of at most ${field.max}`);
    else if (field.type === 'boolean' && typeof value !== 'boolean') problems.push(`${name} is not a boolean`);
    else if (field.type === 'date' && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) problems.push(`${name} is not a date`);
  }
  for (const [name, field] of Object.entries(ADD_EDIT_PATIENT_REQUEST))
    if (field.required && (body[name] === undefined || body[name] === '')) problems.push(`${name} is required`);
  return problems;
}

const ordinary: DoseSpotPatient = {
  id: 'pat_0123456789abcdef01234567',
  firstName: 'Maria',
  lastName: 'Lopez',
  dateOfBirth: '1984-03-02',
  gender: 'female',
  address: { line1: '12 Harbor St', city: 'Portland', state: 'ME', zip: '04101' },
  phone: '+12075550142',
  phoneType: 'mobile',
};
/** A chart Tidewell accepts whose name and street line run past DoseSpot's 35 characters. */
const long: DoseSpotPatient = {
  ...ordinary,
  firstName: 'Maria Guadalupe Esperanza Concepción',
  lastName: 'Fernández de la Torre-Villanueva Ortiz',
  address: { line1: '12345 Northwest Cornelius Pass Road Building C', line2: 'Apartment 1204', city: 'Portland', state: 'OR', zip: '97229-1234' },
};

let server: Server;
let base: string;
const AUTH = { clinicId: '1207', clinicKey: 'clinic-key-of-the-local-clinic-0123456789', subscriptionKey: 'subscription-key-local', doseSpotUserId: '2001' };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dosespot-contract-'));
  const secretsFile = join(dir, 'secrets.json');
  writeFileSync(
    secretsFile,
    JSON.stringify({
      dosespot: JSON.stringify({
        clinicId: AUTH.clinicId,
        clinicKey: AUTH.clinicKey,
        subscriptionKey: AUTH.subscriptionKey,
        users: { 'user-1': AUTH.doseSpotUserId },
      }),
    }),
  );
  const local = createLocalDoseSpot({ dataDir: dir, secretsFile });
  server = createServer((req, res) => void local.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${LOCAL_DOSESPOT_PREFIX}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => forgetDoseSpotTokens());

describe('the patient body against AddEditPatientRequest as DoseSpot publishes it', () => {
  it('names only published fields, carries every required one, within each published length', () => {
    expect(againstHelpPage(doseSpotPatientBody(ordinary))).toEqual([]);
    expect(againstHelpPage(doseSpotPatientBody(long))).toEqual([]);
  });

  it('keeps a long street line whole across Address1 and Address2, split between words', () => {
    const body = doseSpotPatientBody(long);
    expect(body.Address1).toBe('12345 Northwest Cornelius Pass Road');
    expect(body.Address2).toBe('Building C, Apartment 1204');
    expect(body.FirstName.length).toBeLessThanOrEqual(35);
    expect(body.LastName.length).toBeLessThanOrEqual(35);
  });

  it('the stand-in takes both patients, and refuses a field past its published length as DoseSpot does', async () => {
    expect(await pushPatient(base, AUTH, ordinary)).toMatch(/^\d+$/);
    expect(await pushPatient(base, AUTH, long)).toMatch(/^\d+$/);
    const token = (await (
      await fetch(`${base}/webapi/v2/connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'Subscription-Key': AUTH.subscriptionKey },
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: AUTH.clinicId,
          client_secret: AUTH.clinicKey,
          username: AUTH.doseSpotUserId,
          password: AUTH.clinicKey,
          scope: 'api',
        }),
      })
    ).json()) as { access_token: string };
    const tooLong = { ...doseSpotPatientBody(ordinary), Address1: long.address!.line1! };
    const refused = await fetch(`${base}/webapi/v2/api/patients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'Subscription-Key': AUTH.subscriptionKey, 'content-type': 'application/json' },
      body: JSON.stringify(tooLong),
    });
    const answer = (await refused.json()) as { Result: { ResultCode: string; ResultDescription: string } };
    expect(answer.Result).toEqual({ ResultCode: 'ERROR', ResultDescription: 'Address1 must be a string with a maximum length of 35.' });
    await expect(pushPatient(base, AUTH, { ...ordinary, id: 'x'.repeat(36) })).rejects.toBeInstanceOf(DoseSpotApiError);
  });
});
