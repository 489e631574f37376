import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, practiceAuditEntries, signIn } from '../support/local-stack.js';

const run = Date.now().toString(36);
let employee: string;
let admin: string;

beforeAll(async () => {
  employee = await signIn('employee@demo.tidewell.local');
  admin = await signIn('admin@demo.tidewell.local');
});

/** Every match of a search, page after page (each page looks through a stretch of the book). */
async function searchAll(token: string, search: string): Promise<{ contactId: string; name: string }[]> {
  const found: { contactId: string; name: string }[] = [];
  let next: string | null = null;
  do {
    const res = await api(token, 'GET', `/v2/practices/contacts?search=${encodeURIComponent(search)}${next ? `&nextToken=${next}` : ''}`);
    expect(res.status).toBe(200);
    found.push(...res.body.contacts);
    next = res.body.nextToken;
  } while (next);
  return found;
}

const n = (i: number) => `(541) 555-${String(7000 + (Number.parseInt(run.slice(-3), 36) % 900) + i).padStart(4, '0')}`;

describe('practice contacts', () => {
  it('creates, lists, finds by phone, updates and deletes a contact, each audited', async () => {
    const created = await api(employee, 'POST', '/v2/practices/contacts', {
      name: `Rivera Cardiology ${run}`,
      lastName: '',
      phoneNumber: n(1),
      faxNumber: n(2),
      email: 'Front@Rivera.example',
    });
    expect(created.status).toBe(201);
    const id = created.body.contactId as string;
    expect(created.body).toMatchObject({ name: `Rivera Cardiology ${run}`, lastName: null, email: 'front@rivera.example', groups: [] });
    expect(created.body.phoneNumber).toMatch(/^\+1541555\d{4}$/);

    expect((await searchAll(employee, run)).map((c) => c.contactId)).toEqual([id]);
    const one = await api(employee, 'GET', `/v2/practices/contacts?contactId=${id}`);
    expect(one.body.contacts).toMatchObject([{ contactId: id, name: `Rivera Cardiology ${run}` }]);

    const byPhone = await api(employee, 'GET', `/v2/practices/contacts?phoneNumber=${encodeURIComponent(n(1))}`);
    expect(byPhone.body.contacts.map((c: { contactId: string }) => c.contactId)).toEqual([id]);
    const byFax = await api(employee, 'GET', `/v2/practices/contacts?phoneNumber=${encodeURIComponent(created.body.faxNumber)}`);
    expect(byFax.body.contacts.map((c: { contactId: string }) => c.contactId)).toEqual([id]);
    expect((await api(employee, 'GET', '/v2/practices/contacts?phoneNumber=12')).status).toBe(400);

    const updated = await api(admin, 'POST', `/v2/practices/contacts/${id}`, { name: `Rivera Heart ${run}`, phoneNumber: n(3), groups: ['Specialists'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      contactId: id,
      name: `Rivera Heart ${run}`,
      faxNumber: null,
      email: null,
      groups: ['Specialists'],
      createdAt: created.body.createdAt,
    });
    expect((await api(employee, 'GET', `/v2/practices/contacts?phoneNumber=${encodeURIComponent(n(1))}`)).body.contacts).toEqual([]);
    // The renamed contact is found by its new name only.
    expect((await searchAll(employee, `Rivera Heart ${run}`)).map((c) => c.contactId)).toEqual([id]);
    expect(await searchAll(employee, `Rivera Cardiology ${run}`)).toEqual([]);

    expect((await api(employee, 'DELETE', `/v2/practices/contacts/${id}`)).status).toBe(204);
    expect((await api(employee, 'DELETE', `/v2/practices/contacts/${id}`)).status).toBe(404);
    expect((await api(employee, 'POST', `/v2/practices/contacts/${id}`, { name: 'Gone', email: 'a@b.example' })).status).toBe(404);
    expect((await api(employee, 'GET', `/v2/practices/contacts?contactId=${id}`)).body.contacts).toEqual([]);
    expect(await searchAll(employee, run)).toEqual([]);

    const entries = await practiceAuditEntries({ FilterExpression: 'entityId = :id', ExpressionAttributeValues: { ':id': id } });
    expect(entries.map((e) => `${e.action} ${e.entity}`).sort()).toEqual([
      'create contact',
      'delete contact',
      'read contact',
      'read contact',
      'update contact',
    ]);
  });

  it("refuses an update without a contact ID with the spec's words, and bad input with field errors", async () => {
    for (const missing of ['undefined', 'null', '%20']) {
      const res = await api(employee, 'POST', `/v2/practices/contacts/${missing}`, { name: 'X', email: 'x@y.example' });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('Cannot update contact without contact ID');
    }
    const noName = await api(employee, 'POST', '/v2/practices/contacts', { name: ' ', phoneNumber: n(4) });
    expect(noName.status).toBe(400);
    expect(noName.body.fieldErrors.name).toBe('Name is required');
    const noWay = await api(employee, 'POST', '/v2/practices/contacts', { name: 'Nobody' });
    expect(noWay.status).toBe(400);
    expect(noWay.body.fieldErrors.phoneNumber).toBe('Enter a phone number, a fax number or an email');
    const badPhone = await api(employee, 'POST', '/v2/practices/contacts', { name: 'Bad', phoneNumber: '555-12' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.fieldErrors.phoneNumber).toBe('Enter a valid phone number');
    for (const [query, message] of [
      ['limit=0', 'limit must be at least 1'],
      ['limit=101', 'limit must be at most 100'],
      ['limit=ten', 'limit must be a whole number'],
      ['nextToken=not%20a%20token', 'Invalid nextToken'],
      ['nextToken=AAAA', 'Invalid nextToken'],
    ]) {
      const res = await api(employee, 'GET', `/v2/practices/contacts?${query}`);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(message);
    }
  });

  it('keeps contacts to their practice and refuses no_access users and no token', async () => {
    const mine = await api(employee, 'POST', '/v2/practices/contacts', { name: `Tenancy ${run}`, email: `t-${run}@lab.example` });
    expect(mine.status).toBe(201);
    const id = mine.body.contactId as string;
    const foreign = await createTestUser({ email: `contacts-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_contacts' });
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    for (const token of [foreign, noAccess]) {
      expect((await api(token, 'GET', '/v2/practices/contacts')).status).toBe(403);
      expect((await api(token, 'POST', '/v2/practices/contacts', { name: 'X', email: 'x@y.example' })).status).toBe(403);
      expect((await api(token, 'POST', `/v2/practices/contacts/${id}`, { name: 'X', email: 'x@y.example' })).status).toBe(403);
      expect((await api(token, 'DELETE', `/v2/practices/contacts/${id}`)).status).toBe(403);
    }
    expect((await api(null, 'GET', '/v2/practices/contacts')).status).toBe(401);
    expect((await api(null, 'DELETE', `/v2/practices/contacts/${id}`)).status).toBe(401);
    expect(await searchAll(employee, `Tenancy ${run}`)).toMatchObject([{ contactId: id, name: `Tenancy ${run}` }]);
    expect((await api(employee, 'DELETE', `/v2/practices/contacts/${id}`)).status).toBe(204);
  });
});
