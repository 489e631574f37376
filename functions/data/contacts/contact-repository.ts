import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Contact } from '../../../shared/contacts/contact-schema.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { unchangedSince } from '../../lib/table/put-if-unchanged.js';
import { queryAll } from '../../lib/table/query-all.js';

/*
 * Contact items (docs/access-patterns.md), pk practiceId:
 *   contact          sk CONTACT#<contactId>
 *   number lookup    sk CONTACT_NUMBER#<number>#<contactId>, a copy of the contact: one per phone and fax
 *                    number, written in the contact's transaction, so naming a number reads one item per
 *                    contact that has it.
 *   lookup marker    sk CONTACTS#NUMBER_INDEX { indexed }: the practice's older contacts have their
 *                    lookups (backfillContactNumbers); until then a number is looked up in the whole book.
 * A change or removal is conditioned on the `updatedAt` it read, so the lookups it removes are the
 * numbers the contact had.
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

function contactItem(practiceId: string, contact: Contact): Record<string, unknown> {
  return { ...contact, practiceId, sk: contactKey(contact.contactId), entityType: 'CONTACT' };
}

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

/** The whole book, in name order. */
export async function listContacts(practiceId: string): Promise<Contact[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': CONTACT_PREFIX },
  });
  return items.map(contactFromItem).sort(byName);
}

/** How many contacts the practice keeps, counted up to `max` (keys only). */
export async function countContactsUpTo(practiceId: string, max: number): Promise<number> {
  const existing = await queryAll(
    { KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':p': practiceId, ':prefix': CONTACT_PREFIX }, ProjectionExpression: 'sk' },
    max,
  );
  return existing.length;
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

export async function getContact(practiceId: string, contactId: string): Promise<Contact | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: contactKey(contactId) }, ConsistentRead: true }));
  return out.Item ? contactFromItem(out.Item) : null;
}

/** A new contact and its number lookups, in one transaction. */
export async function insertContact(practiceId: string, contact: Contact): Promise<void> {
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: contactItem(practiceId, contact), ConditionExpression: 'attribute_not_exists(sk)' } },
        ...numbersOf(contact).map((n) => ({ Put: { TableName: tableName(), Item: contactNumberItem(practiceId, n, contact) } })),
      ],
    }),
  );
}

/**
 * Replaces `before` (as read) with `contact`: the lookups of numbers it no longer has go, those of
 * its numbers are written. False when the contact changed or went since it was read.
 */
export async function replaceContact(practiceId: string, before: Contact, contact: Contact): Promise<boolean> {
  const kept = numbersOf(contact);
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: contactItem(practiceId, contact),
              ...unchangedSince('updatedAt', before.updatedAt),
            },
          },
          ...numbersOf(before)
            .filter((n) => !kept.includes(n))
            .map((n) => ({ Delete: { TableName: tableName(), Key: { practiceId, sk: contactNumberKey(n, before.contactId) } } })),
          ...kept.map((n) => ({ Put: { TableName: tableName(), Item: contactNumberItem(practiceId, n, contact) } })),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Removes `before` (as read) and its number lookups. False when the contact changed or went since it was read. */
export async function removeContact(practiceId: string, before: Contact): Promise<boolean> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: { practiceId, sk: contactKey(before.contactId) },
              ...unchangedSince('updatedAt', before.updatedAt),
            },
          },
          ...numbersOf(before).map((n) => ({ Delete: { TableName: tableName(), Key: { practiceId, sk: contactNumberKey(n, before.contactId) } } })),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
