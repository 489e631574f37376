import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CONTACT_MESSAGES, CONTACTS_MAX, type Contact, ContactInput } from '../../shared/contacts/contact-schema.js';
import { isConditionFailure } from '../lib/table/condition-failure.js';
import type * as z from '../../shared/zod.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, NotFoundError } from '../lib/errors.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { queryAll } from '../lib/table/query-all.js';

/*
 * Contact items (docs/access-patterns.md), pk practiceId:
 *   contact          sk CONTACT#<contactId>
 *   number lookup    sk CONTACT_NUMBER#<number>#<contactId>, a copy of the contact: one per phone and fax
 *                    number, written in the contact's transaction, so naming a number reads one item per
 *                    contact that has it.
 *   lookup marker    sk CONTACTS#NUMBER_INDEX { indexed }: the practice's older contacts have their
 *                    lookups (backfillContactNumbers); until then a number is looked up in the whole book.
 */
export const CONTACT_PREFIX = 'CONTACT#';
export const contactKey = (contactId: string) => `${CONTACT_PREFIX}${contactId}`;
export const CONTACT_NUMBER_PREFIX = 'CONTACT_NUMBER#';
export const contactNumberKey = (number: string, contactId: string) => `${CONTACT_NUMBER_PREFIX}${number}#${contactId}`;
export const CONTACT_NUMBERS_MARKER = 'CONTACTS#NUMBER_INDEX';

/** The contact's numbers, each once: a phone that is also the fax has one lookup. */
export const numbersOf = (c: Pick<Contact, 'phoneNumber' | 'faxNumber'>): string[] => [...new Set([c.phoneNumber, c.faxNumber].filter((n): n is string => !!n))];

export const contactNumberItem = (practiceId: string, number: string, contact: Contact) => ({
  ...contact,
  practiceId,
  sk: contactNumberKey(number, contact.contactId),
  entityType: 'CONTACT_NUMBER',
});

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

const byName = (a: Contact, b: Contact) => a.name.localeCompare(b.name) || (a.lastName ?? '').localeCompare(b.lastName ?? '');

/** Each contact once, in the book's order. */
export const contactsInNameOrder = (contacts: readonly Contact[]): Contact[] => [...new Map(contacts.map((c) => [c.contactId, c])).values()].sort(byName);

export async function listContacts(practiceId: string): Promise<Contact[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CONTACT_PREFIX },
  });
  return items.map(contactFromItem).sort(byName);
}

async function numbersIndexed(practiceId: string): Promise<boolean> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CONTACT_NUMBERS_MARKER }, ConsistentRead: true }));
  return out.Item?.indexed === true;
}

/**
 * The contacts with each of the given phone or fax numbers, in name order per number: one Query of
 * each number's lookups, reading one item per contact that has it, however large the book.
 */
export async function contactsByNumbers(practiceId: string, numbers: readonly string[]): Promise<Map<string, Contact[]>> {
  const wanted = [...new Set(numbers)];
  const result = new Map<string, Contact[]>();
  if (wanted.length === 0) return result;
  if (!(await numbersIndexed(practiceId))) {
    const all = await listContacts(practiceId);
    for (const n of wanted) result.set(n, all.filter((c) => c.phoneNumber === n || c.faxNumber === n));
    return result;
  }
  await Promise.all(
    wanted.map(async (n) => {
      const items = await queryAll({
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
        ConsistentRead: true,
        ExpressionAttributeValues: { ':p': practiceId, ':prefix': `${CONTACT_NUMBER_PREFIX}${n}#` },
      });
      result.set(n, items.map(contactFromItem).sort(byName));
    }),
  );
  return result;
}

/** GET /v2/practices/contacts(?phoneNumber=): the whole book, or the contacts with that phone or fax number. */
export async function contactList(auth: AuthContext, phoneNumber?: string | null): Promise<{ contacts: Contact[] }> {
  const contacts = phoneNumber ? ((await contactsByNumbers(auth.practiceId, [phoneNumber])).get(phoneNumber) ?? []) : await listContacts(auth.practiceId);
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
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: contactItem(auth.practiceId, contact), ConditionExpression: 'attribute_not_exists(sk)' } },
        ...numbersOf(contact).map((n) => ({ Put: { TableName: tableName(), Item: contactNumberItem(auth.practiceId, n, contact) } })),
      ],
    }),
  );
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
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: contactKey(contactId) }, ConsistentRead: true }));
  const before = out.Item ? contactFromItem(out.Item) : null;
  if (!before) throw new NotFoundError(CONTACT_MESSAGES.notFound);
  const contact: Contact = { ...before, ...fields(input), updatedAt: now.toISOString() };
  const kept = numbersOf(contact);
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: contactItem(auth.practiceId, contact),
              ConditionExpression: 'attribute_exists(sk) AND updatedAt = :seen',
              ExpressionAttributeValues: { ':seen': before.updatedAt },
            },
          },
          ...numbersOf(before)
            .filter((n) => !kept.includes(n))
            .map((n) => ({ Delete: { TableName: tableName(), Key: { practiceId: auth.practiceId, sk: contactNumberKey(n, contactId) } } })),
          ...kept.map((n) => ({ Put: { TableName: tableName(), Item: contactNumberItem(auth.practiceId, n, contact) } })),
        ],
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) return RACED;
    throw error;
  }
  return contact;
}

export async function deleteContact(auth: AuthContext, contactId: string): Promise<void> {
  await retryOnRace(() => writeDelete(auth, contactId));
  await writeAudit(auth, { action: 'delete', entity: 'contact', entityId: contactId });
}

async function writeDelete(auth: AuthContext, contactId: string): Promise<true | typeof RACED> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: contactKey(contactId) }, ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError(CONTACT_MESSAGES.notFound);
  const before = contactFromItem(out.Item);
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: { practiceId: auth.practiceId, sk: contactKey(contactId) },
              ConditionExpression: 'attribute_exists(sk) AND updatedAt = :seen',
              ExpressionAttributeValues: { ':seen': before.updatedAt },
            },
          },
          ...numbersOf(before).map((n) => ({ Delete: { TableName: tableName(), Key: { practiceId: auth.practiceId, sk: contactNumberKey(n, contactId) } } })),
        ],
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) return RACED;
    throw error;
  }
  return true;
}
