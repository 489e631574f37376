import { describe, expect, it } from 'vitest';
import { CONTACT_PAGE, ContactIdParams, ContactInput, ContactListQuery, contactSearchScore, searchContacts, type Contact } from './contact-schema.js';

const contact = (over: Partial<Contact>): Contact => ({
  contactId: over.name ?? 'c',
  name: '',
  lastName: null,
  phoneNumber: null,
  faxNumber: null,
  email: null,
  groups: [],
  createdAt: '',
  updatedAt: '',
  ...over,
});

describe('contact search', () => {
  it('weighs a match in the email at half a match in the name', () => {
    const byName = contact({ name: 'Lopez Pharmacy' });
    const byEmail = contact({ name: 'Main Street Labs', email: 'lopez@labs.example' });
    expect(contactSearchScore(byName, 'lopez')).toBe(1);
    expect(contactSearchScore(byEmail, 'lopez')).toBe(0.5);
    expect(searchContacts([byEmail, byName], 'lopez').map((c) => c.name)).toEqual(['Lopez Pharmacy', 'Main Street Labs']);
  });

  it('needs every word somewhere, matches numbers by digits, and keeps everyone for an empty query', () => {
    const a = contact({ name: 'Ana', lastName: 'Rivera', phoneNumber: '+15415550100' });
    const b = contact({ name: 'Bo', faxNumber: '+15415550199' });
    expect(searchContacts([a, b], 'ana rivera')).toEqual([a]);
    expect(searchContacts([a, b], 'ana smith')).toEqual([]);
    expect(searchContacts([a, b], '(541) 555-0199')).toEqual([b]);
    expect(searchContacts([a, b], '541')).toEqual([a, b]);
    expect(searchContacts([a, b], '555-0199')).toEqual([b]);
    expect(searchContacts([b, a], '')).toEqual([a, b]);
  });
});

describe('contact input', () => {
  it('stores numbers as +1 and ten digits and empty fields as none', () => {
    expect(ContactInput.parse({ name: ' Lab ', phoneNumber: '(541) 555-0100', faxNumber: '', email: 'A@B.example' })).toMatchObject({
      name: 'Lab',
      phoneNumber: '+15415550100',
      faxNumber: null,
      email: 'a@b.example',
    });
  });

  it("says 'Cannot update contact without contact ID' for a contact never saved", () => {
    for (const contactId of ['', ' ', 'undefined']) {
      const parsed = ContactIdParams.safeParse({ contactId });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('Cannot update contact without contact ID');
    }
  });
});

describe('ContactListQuery', () => {
  it('asks for a page of 50 unless told, at most 100, and refuses a token that is not one', () => {
    expect(ContactListQuery.parse({})).toEqual({ limit: CONTACT_PAGE.size });
    expect(ContactListQuery.parse({ limit: '100', nextToken: 'YWJj', search: ' lab ' })).toEqual({ limit: 100, nextToken: 'YWJj', search: 'lab' });
    expect(ContactListQuery.parse({ phoneNumber: '(458) 555-0199' }).phoneNumber).toBe('+14585550199');
    const message = (query: Record<string, string>) => ContactListQuery.safeParse(query).error?.issues[0]?.message;
    expect(message({ limit: '101' })).toBe('limit must be at most 100');
    expect(message({ limit: '0' })).toBe('limit must be at least 1');
    expect(message({ limit: '2.5' })).toBe('limit must be a whole number');
    expect(message({ nextToken: 'a b' })).toBe('Invalid nextToken');
    expect(message({ contactId: '../x' })).toBe('Contact not found');
  });
});
