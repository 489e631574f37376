import { beforeAll, describe, expect, it } from 'vitest';
import { unsupportedCharacterMessage } from '../../shared/patients/patient-schema.js';
import { api, createTestUser, practiceAuditEntries, signIn } from '../support/local-stack.js';

let provider: string;
let employee: string;
const run = Date.now().toString(36);
const uid = (name: string) => `it-${name}-${run}`;
const ids = (body: { items: { id: string }[] }) => body.items.map((p) => p.id);

const valid = { firstName: 'Ina', lastName: 'Testwell', gender: 'female', dob: '1990-05-17' };
const fullAddress = { line1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' };

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  employee = await signIn('employee@demo.tidewell.local');
});

describe('GET /v1/patients (list)', () => {
  it('pages the seeded patients by last name with limit, offset and total', async () => {
    const first = await api(provider, 'GET', '/v1/patients?limit=10&offset=0');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ limit: 10, offset: 0 });
    expect(first.body.items).toHaveLength(10);
    expect(first.body.total).toBeGreaterThanOrEqual(37);
    const lastNames = first.body.items.map((p: { lastName: string }) => p.lastName.toLowerCase());
    expect(lastNames).toEqual([...lastNames].sort());

    const second = await api(provider, 'GET', '/v1/patients?limit=10&offset=10');
    expect(second.body.items).toHaveLength(10);
    expect(ids(second.body).filter((id) => ids(first.body).includes(id))).toEqual([]);

    const beyond = await api(provider, 'GET', `/v1/patients?limit=10&offset=${first.body.total}`);
    expect(beyond.body).toMatchObject({ items: [], total: first.body.total });
  });

  it('defaults to a page of 100 and lists archived patients with status=DELETED', async () => {
    const all = await api(provider, 'GET', '/v1/patients');
    expect(all.body.limit).toBe(100);
    expect(all.body.items.every((p: { status: string }) => p.status === 'active')).toBe(true);
    const archived = await api(provider, 'GET', '/v1/patients?status=DELETED');
    expect(archived.status).toBe(200);
    expect(ids(archived.body)).toEqual(expect.arrayContaining(['pat-0038', 'pat-0039', 'pat-0040']));
    expect(archived.body.items.every((p: { status: string; membershipStatus: string }) => p.status === 'DELETED' && p.membershipStatus === 'archived')).toBe(
      true,
    );
  });

  it('rejects a bad paging parameter with 400 naming it', async () => {
    const res = await api(provider, 'GET', '/v1/patients?limit=abc');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fieldErrors)).toEqual(['limit']);
  });
});

describe('GET /v1/patients/{id}', () => {
  it('returns a seeded patient', async () => {
    const res = await api(employee, 'GET', '/v1/patients/pat-0001');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'pat-0001', firstName: 'Maria', lastName: 'Lopez', gender: 'female' });
    expect(res.body.phones[0].number).toMatch(/^\+1\d{10}$/);
  });
  it('answers 404 for an unknown id', async () => {
    const res = await api(provider, 'GET', '/v1/patients/nobody-here');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Patient not found');
  });
});

describe('search (q)', () => {
  const phoneId = uid('phone');
  beforeAll(async () => {
    const res = await api(provider, 'POST', '/v1/patients', {
      ...valid,
      id: phoneId,
      firstName: 'Quintessa',
      lastName: 'Zebulon',
      chosenFirstName: 'Quin',
      phones: [{ type: 'mobile', number: '(987) 654-3210' }],
    });
    expect(res.status).toBe(201);
  });

  it('finds patients by name prefix, containment and chosen name, best first', async () => {
    expect(ids((await api(provider, 'GET', '/v1/patients?q=quintes')).body)[0]).toBe(phoneId);
    expect(ids((await api(provider, 'GET', '/v1/patients?q=ebulo')).body)).toContain(phoneId);
    expect(ids((await api(provider, 'GET', '/v1/patients?q=quin%20zebulon')).body)).toEqual([phoneId]);
    const lopez = await api(provider, 'GET', '/v1/patients?q=Maria%20Lopez');
    expect(ids(lopez.body)[0]).toBe('pat-0001');
    const garcia = await api(provider, 'GET', '/v1/patients?q=garcia');
    expect(garcia.body.total).toBe(4);
  });

  it('finds a patient by part of a phone number: substring, subsequence, scrambled digits', async () => {
    const substring = await api(provider, 'GET', '/v1/patients?q=76543');
    expect(ids(substring.body)[0]).toBe(phoneId);
    const subsequence = await api(provider, 'GET', '/v1/patients?q=9753');
    expect(ids(subsequence.body)).toContain(phoneId);
    const scrambled = await api(provider, 'GET', '/v1/patients?q=45678');
    // Other patients of the shared practice may hold these digits as typed or in order, and rank first.
    expect(ids(scrambled.body)).toContain(phoneId);
    const none = await api(provider, 'GET', '/v1/patients?q=00000000');
    expect(ids(none.body)).not.toContain(phoneId);
    const reasonOf = (body: { matches: { id: string }[] }) => body.matches.find((m) => m.id === phoneId);
    expect([substring, subsequence, scrambled].map((res) => reasonOf(res.body))).toEqual([
      { id: phoneId, by: 'phone', kind: 'substring' },
      { id: phoneId, by: 'phone', kind: 'subsequence' },
      { id: phoneId, by: 'phone', kind: 'scrambled' },
    ]);
  });

  it('lists the demo numbers that hold "555-0142" as typed before those with the digits in order or scrambled, saying which', async () => {
    const res = await api(provider, 'GET', `/v1/patients?q=${encodeURIComponent('555-0142')}`);
    expect(res.body.matches.map((m: { id: string }) => m.id)).toEqual(ids(res.body));
    const kinds: string[] = res.body.matches.map((m: { kind: string }) => m.kind);
    // The Garcia family's shared home number (305) 555-0142 holds the fragment as typed.
    expect(ids(res.body).slice(0, 4).sort()).toEqual(['pat-0006', 'pat-0007', 'pat-0008', 'pat-0009']);
    expect(kinds.slice(0, 4)).toEqual(['substring', 'substring', 'substring', 'substring']);
    const rank = { substring: 0, subsequence: 1, scrambled: 2 } as Record<string, number>;
    expect(kinds.map((k) => rank[k])).toEqual([...kinds.map((k) => rank[k])].sort());
    expect(kinds).toContain('scrambled');
  });

  it('normalises a formatted phone query', async () => {
    const res = await api(provider, 'GET', `/v1/patients?q=${encodeURIComponent('(555) 01')}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThan(0);
    expect(ids(res.body)).toContain('pat-0001');
    const family = await api(provider, 'GET', `/v1/patients?q=${encodeURIComponent('(305) 555-0142')}`);
    expect(ids(family.body).slice(0, 4).sort()).toEqual(['pat-0006', 'pat-0007', 'pat-0008', 'pat-0009']);
  });

  it('sees a new patient right after it is created', async () => {
    const id = uid('fresh');
    await api(provider, 'POST', '/v1/patients', { ...valid, id, lastName: 'Freshlyadded' });
    expect(ids((await api(provider, 'GET', '/v1/patients?q=freshlyadded')).body)).toEqual([id]);
  });
});

describe('POST /v1/patients', () => {
  it('creates with 201, drops unknown fields, and refuses a repeated id with 409', async () => {
    const id = uid('create');
    const res = await api(provider, 'POST', '/v1/patients', { ...valid, id, status: 'DELETED', practiceId: 'prc_other', isVip: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id, status: 'active', membershipStatus: 'active' });
    expect(res.body).not.toHaveProperty('isVip');
    expect(res.body).not.toHaveProperty('practiceId');
    const again = await api(provider, 'POST', '/v1/patients', { ...valid, id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A patient with this id already exists');
  });

  it('generates an id when none is given', async () => {
    const res = await api(employee, 'POST', '/v1/patients', valid);
    expect(res.status).toBe(201);
    expect(res.body.id.length).toBeLessThanOrEqual(35);
    expect((await api(employee, 'GET', `/v1/patients/${res.body.id}`)).status).toBe(200);
  });

  const cases: [string, Record<string, unknown>, string, string][] = [
    ['first name required', { firstName: '' }, 'firstName', 'First Name is required'],
    ['first name max 35', { firstName: 'a'.repeat(36) }, 'firstName', 'First Name must be at most 35 characters'],
    ['last name required', { lastName: undefined }, 'lastName', 'Last Name is required'],
    ['last name max 35', { lastName: 'a'.repeat(36) }, 'lastName', 'Last Name must be at most 35 characters'],
    ['middle name max 35', { middleName: 'a'.repeat(36) }, 'middleName', 'Middle Name must be at most 35 characters'],
    ['dob after today', { dob: '2999-01-01' }, 'dob', 'Date of birth cannot be after today'],
    ['dob before 1900', { dob: '1899-12-31' }, 'dob', 'Date of birth must be after 1900'],
    ['gender', { gender: 'robot' }, 'gender', 'Invalid gender'],
    ['email max 80', { email: `${'e'.repeat(75)}@x.com` }, 'email', 'Email must be at most 80 characters'],
    ['id max 35', { id: 'i'.repeat(36) }, 'id', 'Patient id must be at most 35 characters'],
    ['address line1 max 35', { address: { line1: 'a'.repeat(36) } }, 'address.line1', 'Address Line 1 must be at most 35 characters'],
    ['address line2 max 35', { address: { line2: 'a'.repeat(36) } }, 'address.line2', 'Address Line 2 must be at most 35 characters'],
    ['city max 35', { address: { city: 'a'.repeat(36) } }, 'address.city', 'City must be at most 35 characters'],
    ['state max 10', { address: { state: 'a'.repeat(11) } }, 'address.state', 'State must be at most 10 characters'],
    ['zip max 10', { address: { zip: '1'.repeat(11) } }, 'address.zip', 'Zip Code must be at most 10 characters'],
    ['unsupported character', { lastName: 'Müller' }, 'lastName', unsupportedCharacterMessage('Last Name')],
    [
      'phone characters',
      { phones: [{ type: 'mobile', number: '555.010.1234' }] },
      'phones.0.number',
      'Phone number may contain only digits, parentheses, hyphen and space',
    ],
    ['wrong type', { firstName: 12 }, 'firstName', 'First Name must be text'],
  ];
  it.each(cases)('400 for %s with the message', async (_name, change, field, message) => {
    const res = await api(provider, 'POST', '/v1/patients', { ...valid, ...change });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ [field]: message });
    expect(res.body.message).toBe(`${field}: ${message}`);
  });

  it('applies full validation with ?fullValidation=true', async () => {
    const res = await api(provider, 'POST', '/v1/patients?fullValidation=true', valid);
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({
      'address.line1': 'Address Line 1 is required',
      'address.city': 'City is required',
      'address.state': 'State is required',
      'address.zip': 'Zip Code is required',
      primaryPhoneNumber: 'Primary phone number is required',
    });
    const long = await api(provider, 'POST', '/v1/patients?fullValidation=true', { ...valid, address: fullAddress, primaryPhoneNumber: '1'.repeat(36) });
    expect(long.body.fieldErrors).toEqual({ primaryPhoneNumber: 'Primary phone number must be at most 35 characters' });
    const ok = await api(provider, 'POST', '/v1/patients?fullValidation=true', { ...valid, address: fullAddress, primaryPhoneNumber: '(512) 555-0199' });
    expect(ok.status).toBe(201);
    expect(ok.body.primaryPhoneNumber).toBe('+15125550199');
  });

  it('answers malformed JSON and a non-object body with 400', async () => {
    const malformed = await api(provider, 'POST', '/v1/patients', '{"firstName": "Ana",');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/Malformed JSON/);
    const array = await api(provider, 'POST', '/v1/patients', '[1,2]');
    expect(array.status).toBe(400);
  });
});

describe('PUT and archive', () => {
  it('updates the editable fields, keeps id and createdAt, 404 for unknown', async () => {
    const id = uid('update');
    const created = await api(provider, 'POST', '/v1/patients', { ...valid, id });
    const res = await api(employee, 'PUT', `/v1/patients/${id}`, { ...valid, id: 'other', firstName: 'Inez', email: 'inez@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, firstName: 'Inez', email: 'inez@example.com', createdAt: created.body.createdAt });
    expect((await api(provider, 'GET', `/v1/patients/${id}`)).body.firstName).toBe('Inez');
    expect((await api(provider, 'PUT', '/v1/patients/nobody-here', valid)).status).toBe(404);
    const bad = await api(provider, 'PUT', `/v1/patients/${id}`, { ...valid, gender: 'x' });
    expect(bad.body.fieldErrors).toEqual({ gender: 'Invalid gender' });
  });

  it('archives (provider), moving the patient to the DELETED list; employee gets 403', async () => {
    const id = uid('archive');
    await api(provider, 'POST', '/v1/patients', { ...valid, id, lastName: 'Archivable' });
    expect((await api(employee, 'POST', `/v1/patients/${id}/archive`)).status).toBe(403);
    const res = await api(provider, 'POST', `/v1/patients/${id}/archive`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'DELETED', membershipStatus: 'archived' });
    expect(ids((await api(provider, 'GET', '/v1/patients?q=archivable')).body)).toEqual([]);
    expect(ids((await api(provider, 'GET', '/v1/patients?status=DELETED&q=archivable')).body)).toEqual([id]);
    expect((await api(provider, 'POST', '/v1/patients/nobody-here/archive')).status).toBe(404);
  });
});

describe('audit and access', () => {
  it('writes an audit entry for each read, naming who and which patient', async () => {
    const email = `auditor-${run}@demo.tidewell.local`;
    const token = await createTestUser({ email, group: 'employee' });
    await api(token, 'GET', '/v1/patients/pat-0002');
    await api(token, 'GET', '/v1/patients?limit=5');
    await api(token, 'GET', '/v1/patients?q=lopez');
    const entries = await practiceAuditEntries({ FilterExpression: 'actorEmail = :e', ExpressionAttributeValues: { ':e': email } });
    expect(entries.map((e) => e.action).sort()).toEqual(['list', 'read', 'search']);
    expect(entries.find((e) => e.action === 'read')).toMatchObject({ entity: 'patient', patientId: 'pat-0002', actorRole: 'employee' });
    // The directory's one entry names every patient it showed.
    const listed = entries.find((e) => e.action === 'list')!;
    expect(listed.count).toBe(5);
    expect(new Set(listed.patientIds as string[]).size).toBe(5);
    expect(entries.find((e) => e.action === 'search')?.patientIds).toEqual(expect.arrayContaining([expect.stringMatching(/^pat-/)]));
  });

  it('refuses no_access (403), another practice (403) and a missing token (401)', async () => {
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    expect((await api(noAccess, 'GET', '/v1/patients')).status).toBe(403);
    expect((await api(noAccess, 'GET', '/v1/patients/pat-0001')).status).toBe(403);
    const foreign = await createTestUser({ email: `foreign-${run}@other.test`, group: 'admin', practiceId: 'prc_other_practice' });
    expect((await api(foreign, 'GET', '/v1/patients')).status).toBe(403);
    expect((await api(null, 'GET', '/v1/patients')).status).toBe(401);
  });
});
