import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../shared/contacts/contact-schema.js';
import { contactForNumber } from './contacts.js';

const base = { lastName: null, email: null, groups: [], createdAt: '', updatedAt: '' };
const lab: Contact = { ...base, contactId: 'a', name: 'Lab', phoneNumber: null, faxNumber: '+14585550199' };
const clinic: Contact = { ...base, contactId: 'b', name: 'Clinic', phoneNumber: '+14585550199', faxNumber: null };

describe('contactForNumber', () => {
  it('finds the contact by phone before fax, whatever way the number is written', () => {
    expect(contactForNumber([lab, clinic], '(458) 555-0199')).toBe(clinic);
    expect(contactForNumber([lab], '4585550199')).toBe(lab);
    expect(contactForNumber([lab, clinic], '+14585550100')).toBeNull();
    expect(contactForNumber(undefined, '+14585550199')).toBeNull();
    expect(contactForNumber([lab], null)).toBeNull();
  });
});
