import { randomUUID } from 'node:crypto';
import {
  CONTACT_MESSAGES,
  CONTACT_PAGE,
  CONTACTS_MAX,
  type Contact,
  ContactInput,
  type ContactListQuery,
  type ContactPage,
} from '../../shared/contacts/contact-schema.js';
import type * as z from '../../shared/zod.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, NotFoundError } from '../lib/errors.js';
import {
  contactsByNumbers,
  countContactsUpTo,
  getContact,
  insertContact,
  listContactPage,
  removeContact,
  replaceContact,
} from '../data/contacts/contact-repository.js';

/* The practice's contact book; its items and number lookups are in functions/data/contacts/contact-repository.ts. */

type ParsedInput = z.output<typeof ContactInput>;

/**
 * GET /v2/practices/contacts: the contacts with `?phoneNumber=` (phone or fax), the one `?contactId=`
 * (none when gone), or one page of the book in name order, searched with `?search=`.
 */
export async function contactList(auth: AuthContext, query: z.output<typeof ContactListQuery>): Promise<ContactPage> {
  const { phoneNumber, contactId, search, limit, nextToken } = query;
  let page: ContactPage;
  if (phoneNumber) page = { contacts: (await contactsByNumbers(auth.practiceId, [phoneNumber])).get(phoneNumber) ?? [] };
  else if (contactId) page = { contacts: [await getContact(auth.practiceId, contactId)].filter((c): c is Contact => c !== null) };
  else page = await listContactPage(auth.practiceId, { limit, nextToken, search: search || null, scan: CONTACT_PAGE.searchScan });
  await writeAudit(auth, {
    action: phoneNumber || search ? 'search' : contactId ? 'read' : 'list',
    entity: 'contact',
    ...(contactId ? { entityId: contactId } : {}),
  });
  return page;
}

const fields = (input: ParsedInput) => ({
  name: input.name,
  lastName: input.lastName || null,
  phoneNumber: input.phoneNumber ?? null,
  faxNumber: input.faxNumber ?? null,
  email: input.email ?? null,
  groups: input.groups ?? [],
});

export async function createContact(auth: AuthContext, input: ParsedInput, now = new Date()): Promise<Contact> {
  if ((await countContactsUpTo(auth.practiceId, CONTACTS_MAX)) >= CONTACTS_MAX) throw new ConflictError(`A practice keeps at most ${CONTACTS_MAX} contacts`);
  const at = now.toISOString();
  const contact: Contact = { contactId: randomUUID(), ...fields(input), createdAt: at, updatedAt: at };
  await insertContact(auth.practiceId, contact);
  await writeAudit(auth, { action: 'create', entity: 'contact', entityId: contact.contactId });
  return contact;
}

/** POST /v2/practices/contacts/{contactId}: replaces the contact's fields; one that does not exist is not created. */
export async function updateContact(auth: AuthContext, contactId: string, input: ParsedInput, now = new Date()): Promise<Contact> {
  const contact = await retryOnRace(() => writeUpdate(auth, contactId, input, now));
  await writeAudit(auth, { action: 'update', entity: 'contact', entityId: contactId });
  return contact;
}

/**
 * The contact's write is conditioned on the version read, so the lookups it removes are the
 * numbers it had; a write that raced another edit reads the contact again and is made on top of it
 * (the last save wins, as before lookups were kept).
 */
async function retryOnRace<T>(write: () => Promise<T | typeof RACED>): Promise<T> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const result = await write();
    if (result !== RACED) return result;
  }
  throw new ConflictError('The contact was changed by someone else. Reload and try again.');
}
const RACED = Symbol('raced');

async function writeUpdate(auth: AuthContext, contactId: string, input: ParsedInput, now: Date): Promise<Contact | typeof RACED> {
  const before = await getContact(auth.practiceId, contactId);
  if (!before) throw new NotFoundError(CONTACT_MESSAGES.notFound);
  const contact: Contact = { ...before, ...fields(input), updatedAt: now.toISOString() };
  return (await replaceContact(auth.practiceId, before, contact)) ? contact : RACED;
}

export async function deleteContact(auth: AuthContext, contactId: string): Promise<void> {
  await retryOnRace(() => writeDelete(auth, contactId));
  await writeAudit(auth, { action: 'delete', entity: 'contact', entityId: contactId });
}

async function writeDelete(auth: AuthContext, contactId: string): Promise<true | typeof RACED> {
  const before = await getContact(auth.practiceId, contactId);
  if (!before) throw new NotFoundError(CONTACT_MESSAGES.notFound);
  return (await removeContact(auth.practiceId, before)) ? true : RACED;
}
