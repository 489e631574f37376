import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { handler } from './handler.js';
import { putPatientsBatch } from '../data/patients/patient-repository.js';
import { invoke, startTestTable, TEST_PRACTICE } from '../../test/support/test-table.js';

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(async () => table?.stop());

const maria = {
  id: 'unit-maria',
  firstName: 'Maria',
  lastName: 'Lopez',
  gender: 'female',
  dob: '1984-03-02',
  phones: [{ type: 'mobile', number: '(555) 010-1234' }],
};

describe('patients handler', () => {
  it('creates with 201, normalises phones, and refuses a repeated id with 409', async () => {
    const created = await invoke(handler, { routeKey: 'POST /v1/patients', body: { ...maria, status: 'DELETED', extra: 1 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'unit-maria',
      status: 'active',
      membershipStatus: 'active',
      phones: [{ type: 'mobile', number: '+15550101234' }],
    });
    expect(created.body).not.toHaveProperty('extra');
    const again = await invoke(handler, { routeKey: 'POST /v1/patients', body: maria });
    expect(again).toEqual({ status: 409, body: { message: 'A patient with this id already exists' } });
  });

  it('returns 400 with the spec message per field', async () => {
    const res = await invoke(handler, { routeKey: 'POST /v1/patients', body: { firstName: 'Ana', lastName: 'Lee', gender: 'x', dob: '1800-01-01' } });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ dob: 'Date of birth must be after 1900', gender: 'Invalid gender' });
    expect(res.body.message).toBe('dob: Date of birth must be after 1900');
  });

  it('applies full validation when asked', async () => {
    const res = await invoke(handler, {
      routeKey: 'POST /v1/patients',
      query: { fullValidation: 'true' },
      body: { firstName: 'Ana', lastName: 'Lee', gender: 'female' },
    });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({
      'address.line1': 'Address Line 1 is required',
      'address.city': 'City is required',
      'address.state': 'State is required',
      'address.zip': 'Zip Code is required',
      primaryPhoneNumber: 'Primary phone number is required',
    });
  });

  it('rejects malformed JSON with 400', async () => {
    const res = await invoke(handler, { routeKey: 'POST /v1/patients', rawBody: '{"firstName":' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Malformed JSON in request body');
  });

  it('gets, updates and archives', async () => {
    const got = await invoke(handler, { routeKey: 'GET /v1/patients/{patientId}', pathParameters: { patientId: 'unit-maria' }, groups: ['employee'] });
    expect(got.status).toBe(200);
    expect(got.body.firstName).toBe('Maria');

    const updated = await invoke(handler, {
      routeKey: 'PUT /v1/patients/{patientId}',
      pathParameters: { patientId: 'unit-maria' },
      body: { ...maria, id: 'ignored', chosenFirstName: 'Mari' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: 'unit-maria', chosenFirstName: 'Mari', createdAt: got.body.createdAt });

    const missing = await invoke(handler, { routeKey: 'PUT /v1/patients/{patientId}', pathParameters: { patientId: 'nobody' }, body: maria });
    expect(missing.status).toBe(404);

    const byEmployee = await invoke(handler, {
      routeKey: 'POST /v1/patients/{patientId}/archive',
      pathParameters: { patientId: 'unit-maria' },
      groups: ['employee'],
    });
    expect(byEmployee.status).toBe(403);
    const archived = await invoke(handler, { routeKey: 'POST /v1/patients/{patientId}/archive', pathParameters: { patientId: 'unit-maria' } });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'DELETED', membershipStatus: 'archived' });

    const deleted = await invoke(handler, { routeKey: 'GET /v1/patients', query: { status: 'DELETED' } });
    expect(deleted.body.items.map((p: { id: string }) => p.id)).toContain('unit-maria');
    const active = await invoke(handler, { routeKey: 'GET /v1/patients', query: { q: 'maria' } });
    expect(active.body.items.map((p: { id: string }) => p.id)).not.toContain('unit-maria');
  });

  it('lists by name with paging and searches by phone fragments', async () => {
    const now = new Date().toISOString();
    const base = { gender: 'other' as const, membershipStatus: 'active' as const, status: 'active' as const, createdAt: now, updatedAt: now };
    await putPatientsBatch(TEST_PRACTICE, [
      { ...base, id: 'u1', firstName: 'Zoe', lastName: 'Adams', phones: [{ type: 'mobile', number: '+15550109876' }] },
      { ...base, id: 'u2', firstName: 'Yan', lastName: 'Brown', phones: [{ type: 'home', number: '+15550106789' }] },
      { ...base, id: 'u3', firstName: 'Xia', lastName: 'Chen' },
    ]);
    const page = await invoke(handler, { routeKey: 'GET /v1/patients', query: { limit: '2', offset: '1' } });
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.body.items.map((p: { id: string }) => p.id)).toEqual(['u2', 'u3']);

    const substring = await invoke(handler, { routeKey: 'GET /v1/patients', query: { q: '(555) 010-98' } });
    expect(substring.body.items.map((p: { id: string }) => p.id)).toEqual(['u1']);
    const scrambled = await invoke(handler, { routeKey: 'GET /v1/patients', query: { q: '9876' } });
    expect(scrambled.body.items.map((p: { id: string }) => p.id)).toEqual(['u1', 'u2']);
  });

  it('writes audit entries for reads', async () => {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :a)',
        ExpressionAttributeValues: { ':p': TEST_PRACTICE, ':a': 'AUDIT#' },
      }),
    );
    const actions = new Set((out.Items ?? []).map((i) => i.action));
    // 'refused': the no_access and other-practice attempts above are in the trail too.
    expect([...actions].sort()).toEqual(['archive', 'create', 'list', 'read', 'refused', 'search', 'update']);
  });

  it('refuses no_access and other practices', async () => {
    expect((await invoke(handler, { routeKey: 'GET /v1/patients', groups: ['no_access'] })).status).toBe(403);
    expect((await invoke(handler, { routeKey: 'GET /v1/patients', practiceId: 'prc_other' })).status).toBe(403);
  });
});
