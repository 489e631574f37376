import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { CONTACT_MESSAGES, CONTACTS_MAX, type Contact, ContactInput } from '../../shared/contacts/contact-schema.js';
import { isConditionFailure } from '../lib/table/condition-failure.js';
import type * as z from '../../shared/zod.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, NotFoundError } from '../lib/errors.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { queryAll } from '../lib/table/query-all.js';

/** Contact items: pk practiceId, sk CONTACT#<contactId> (README access patterns). */
export const CONTACT_PREFIX = 'CONTACT#';
export const contactKey = (contactId: string) => `${CONTACT_PREFIX}${contactId}`;

type ParsedInput = z.output<typeof ContactInput>;

export function contactFromItem(item: Record<string, unknown>): Contact {
  return {
    contactId: String(item.contactId),
    name: String(item.name ?? ''),
    lastName: (item.lastName as string | null) ?? null,
    phoneNumber: (item.phoneNumber as string | null) ?? null,
    faxNumber: (item.faxNumber as string | null) ?? null,
    email: (item.email as string | null) ?? null,
    groups: (item.groups as string[] | undefined) ?? [],
    createdAt: String(item.createdAt ?? ''),
    updatedAt: String(item.updatedAt ?? ''),
  };
}

export async function listContacts(practiceId: string): Promise<Contact[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CONTACT_PREFIX },
  });
  return items.map(contactFromItem).sort((a, b) => a.name.localeCompare(b.name) || (a.lastName ?? '').localeCompare(b.lastName ?? ''));
}

/** GET /v2/practices/contacts(?phoneNumber=): the whole book, or the contacts with that phone or fax number. */
export async function contactList(auth: AuthContext, phoneNumber?: string | null): Promise<{ contacts: Contact[] }> {
  const all = await listContacts(auth.practiceId);
  const contacts = phoneNumber ? all.filter((c) => c.phoneNumber === phoneNumber || c.faxNumber === phoneNumber) : all;
  await writeAudit(auth, { action: phoneNumber ? 'search' : 'list', entity: 'contact' });
  return { contacts };
}

function contactItem(practiceId: string, contact: Contact): Record<string, unknown> {
  return { ...contact, practiceId, sk: contactKey(contact.contactId), entityType: 'CONTACT' };
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
  const existing = await queryAll(
    { KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':p': auth.practiceId, ':prefix': CONTACT_PREFIX }, ProjectionExpression: 'sk' },
    CONTACTS_MAX,
  );
  if (existing.length >= CONTACTS_MAX) throw new ConflictError(`A practice keeps at most ${CONTACTS_MAX} contacts`);
  const at = now.toISOString();
  const contact: Contact = { contactId: randomUUID(), ...fields(input), createdAt: at, updatedAt: at };
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: contactItem(auth.practiceId, contact), ConditionExpression: 'attribute_not_exists(sk)' }));
  await writeAudit(auth, { action: 'create', entity: 'contact', entityId: contact.contactId });
  return contact;
}

/** POST /v2/practices/contacts/{contactId}: replaces the contact's fields; one that does not exist is not created. */
export async function updateContact(auth: AuthContext, contactId: string, input: ParsedInput, now = new Date()): Promise<Contact> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: contactKey(contactId) }, ConsistentRead: true }));
  const before = out.Item ? contactFromItem(out.Item) : null;
  if (!before) throw new NotFoundError(CONTACT_MESSAGES.notFound);
  const contact: Contact = { ...before, ...fields(input), updatedAt: now.toISOString() };
  try {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: contactItem(auth.practiceId, contact), ConditionExpression: 'attribute_exists(sk)' }));
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(CONTACT_MESSAGES.notFound);
    throw error;
  }
  await writeAudit(auth, { action: 'update', entity: 'contact', entityId: contactId });
  return contact;
}

export async function deleteContact(auth: AuthContext, contactId: string): Promise<void> {
  try {
    await documentClient().send(
      new DeleteCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: contactKey(contactId) }, ConditionExpression: 'attribute_exists(sk)' }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(CONTACT_MESSAGES.notFound);
    throw error;
  }
  await writeAudit(auth, { action: 'delete', entity: 'contact', entityId: contactId });
}
