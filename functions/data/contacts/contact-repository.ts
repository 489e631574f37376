import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { Contact, contactFullName, contactSearchScore, searchContacts } from '../../../shared/contacts/contact-schema.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { unchangedSince } from '../../lib/table/put-if-unchanged.js';
import { queryAll } from '../../lib/table/query-all.js';
import { ValidationError } from '../../lib/errors.js';

/*
 * Contact items (docs/access-patterns.md), pk practiceId:
 *   contact          sk CONTACT#<contactId>
 *   number lookup    sk CONTACT_NUMBER#<number>#<contactId>, a copy of the contact: one per phone and fax
 *                    number, written in the contact's transaction, so naming a number reads one item per
 *                    contact that has it.
 *   name order       sk CONTACT_NAME#<name key>#<contactId>, a copy of the contact, written in its
 *                    transaction, so a page of the book in name order is one Query.
 *   lookup marker    sk CONTACTS#NUMBER_INDEX { indexed, names }: the practice's older contacts have their
 *                    number lookups and name items (backfillContactNumbers); until then a number is
 *                    looked up, and a page cut, from the whole book.
 * A change or removal is conditioned on the `updatedAt` it read, so the lookups it removes are the
 * numbers the contact had.
 */
export const CONTACT_PREFIX = 'CONTACT#';
export const contactKey = (contactId: string) => `${CONTACT_PREFIX}${contactId}`;
export const CONTACT_NUMBER_PREFIX = 'CONTACT_NUMBER#';
export const contactNumberKey = (number: string, contactId: string) => `${CONTACT_NUMBER_PREFIX}${number}#${contactId}`;
export const CONTACT_NUMBERS_MARKER = 'CONTACTS#NUMBER_INDEX';
export const CONTACT_NAME_PREFIX = 'CONTACT_NAME#';
// Cut so a long name in a four-byte script stays under the sort key's 1,024 bytes.
export const contactNameKey = (c: Pick<Contact, 'name' | 'lastName' | 'contactId'>) =>
  `${CONTACT_NAME_PREFIX}${contactFullName(c).toLowerCase().slice(0, 120)}#${c.contactId}`;

export const contactNameItem = (practiceId: string, contact: Contact) => ({ ...contact, practiceId, sk: contactNameKey(contact), entityType: 'CONTACT_NAME' });

/** The copies of the contact that find it: its name item and one lookup per number. */
export const contactCopies = (practiceId: string, contact: Contact) => [
  contactNameItem(practiceId, contact),
  ...numbersOf(contact).map((n) => contactNumberItem(practiceId, n, contact)),
];

/** The contact's numbers, each once: a phone that is also the fax has one lookup. */
export const numbersOf = (c: Pick<Contact, 'phoneNumber' | 'faxNumber'>): string[] => [
  ...new Set([c.phoneNumber, c.faxNumber].filter((n): n is string => !!n)),
];

export const contactNumberItem = (practiceId: string, number: string, contact: Contact) => ({
  ...contact,
  practiceId,
  sk: contactNumberKey(number, contact.contactId),
  entityType: 'CONTACT_NUMBER',
});

function contactItem(practiceId: string, contact: Contact): Record<string, unknown> {
  return { ...contact, practiceId, sk: contactKey(contact.contactId), entityType: 'CONTACT' };
}

/** Items written before a field existed read as that field's default. */
export function contactFromItem(item: Item): Contact {
  return parseItem('contact', Contact, { lastName: null, phoneNumber: null, faxNumber: null, email: null, groups: [], createdAt: '', updatedAt: '', ...item });
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
    {
      KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':p': practiceId, ':prefix': CONTACT_PREFIX },
      ProjectionExpression: 'sk',
    },
    max,
  );
  return existing.length;
}

async function indexedKeys(practiceId: string): Promise<{ numbers: boolean; names: boolean }> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CONTACT_NUMBERS_MARKER }, ConsistentRead: true }));
  return { numbers: out.Item?.indexed === true, names: out.Item?.names === true };
}

const toToken = (sk: string) => Buffer.from(sk.slice(CONTACT_NAME_PREFIX.length)).toString('base64url');
function fromToken(token: string): string {
  const sk = `${CONTACT_NAME_PREFIX}${Buffer.from(token, 'base64url').toString()}`;
  if (!token || Buffer.byteLength(sk) > 1024 || !/#[A-Za-z0-9_-]+$/.test(sk)) throw new ValidationError('Invalid nextToken');
  return sk;
}

/**
 * One page of the book in name order after `nextToken`; with `search`, the matches among the next
 * `scan` contacts at most (best score first), so a search reads a bounded stretch per page and the
 * next page looks on from where it stopped.
 */
export async function listContactPage(
  practiceId: string,
  { limit, nextToken, search, scan = limit }: { limit: number; nextToken?: string | null; search?: string | null; scan?: number },
): Promise<{ contacts: Contact[]; nextToken: string | null }> {
  const after = nextToken ? fromToken(nextToken) : null;
  const wanted = search ? scan : limit;
  const rows = (await indexedKeys(practiceId)).names
    ? await nameItemsAfter(practiceId, after, wanted + 1)
    : await wholeBookAfter(practiceId, after, wanted + 1);
  const more = rows.length > wanted;
  const looked = rows.slice(0, wanted);
  let last = looked.at(-1)?.sk ?? null;
  let contacts = looked.map((r) => r.contact);
  if (search) {
    const matched: Contact[] = [];
    for (const row of looked) {
      if (contactSearchScore(row.contact, search) > 0) matched.push(row.contact);
      last = row.sk;
      if (matched.length === limit) break;
    }
    contacts = searchContacts(matched, search);
  }
  const stoppedEarly = last !== (looked.at(-1)?.sk ?? null);
  return { contacts, nextToken: (more || stoppedEarly) && last ? toToken(last) : null };
}

async function nameItemsAfter(practiceId: string, after: string | null, limit: number): Promise<{ sk: string; contact: Contact }[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':p': practiceId, ':prefix': CONTACT_NAME_PREFIX },
      Limit: limit,
      ...(after ? { ExclusiveStartKey: { practiceId, sk: after } } : {}),
    }),
  );
  return (out.Items ?? []).map((item) => ({ sk: String(item.sk), contact: contactFromItem(item) }));
}

/** Before the backfill gave older contacts their name items: the page is cut from the whole book, in the same order. */
async function wholeBookAfter(practiceId: string, after: string | null, limit: number): Promise<{ sk: string; contact: Contact }[]> {
  const rows = (await listContacts(practiceId)).map((contact) => ({ sk: contactNameKey(contact), contact }));
  return rows
    .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0))
    .filter((r) => !after || r.sk > after)
    .slice(0, limit);
}

/**
 * The contacts with each of the given phone or fax numbers, in name order per number: one Query of
 * each number's lookups, reading one item per contact that has it, however large the book.
 */
export async function contactsByNumbers(practiceId: string, numbers: readonly string[]): Promise<Map<string, Contact[]>> {
  const wanted = [...new Set(numbers)];
  const result = new Map<string, Contact[]>();
  if (wanted.length === 0) return result;
  if (!(await indexedKeys(practiceId)).numbers) {
    const all = await listContacts(practiceId);
    for (const n of wanted)
      result.set(
        n,
        all.filter((c) => c.phoneNumber === n || c.faxNumber === n),
      );
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

/** A new contact, its name item and its number lookups, in one transaction. */
export async function insertContact(practiceId: string, contact: Contact): Promise<void> {
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: contactItem(practiceId, contact), ConditionExpression: 'attribute_not_exists(sk)' } },
        ...contactCopies(practiceId, contact).map((Item) => ({ Put: { TableName: tableName(), Item } })),
      ],
    }),
  );
}

/**
 * Replaces `before` (as read) with `contact`: the lookups of numbers it no longer has go, and its
 * name item when the name changed; the new copies are written. False when the contact changed or went since it was read.
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
          ...(contactNameKey(before) === contactNameKey(contact)
            ? []
            : [{ Delete: { TableName: tableName(), Key: { practiceId, sk: contactNameKey(before) } } }]),
          ...contactCopies(practiceId, contact).map((Item) => ({ Put: { TableName: tableName(), Item } })),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Removes `before` (as read), its name item and its number lookups. False when the contact changed or went since it was read. */
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
          ...contactCopies(practiceId, before).map((copy) => ({ Delete: { TableName: tableName(), Key: { practiceId, sk: copy.sk } } })),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
