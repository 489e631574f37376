import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { CONTACT_NUMBERS_MARKER, CONTACT_PREFIX, contactCopies, contactFromItem } from './contact-repository.js';

// Kept out of the repository so the request path does not carry it.
/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack): writes the number lookups
 * and name items of the contacts saved before they were kept, then marks the practice so a number
 * is looked up by its key and a page of the book read in name order. A contact saved meanwhile writes its own lookups; writing one twice is harmless.
 */
export async function backfillContactNumbers(practiceId: string): Promise<number> {
  const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: CONTACT_NUMBERS_MARKER }, ConsistentRead: true }));
  if (marker.Item?.indexed === true && marker.Item.names === true) return 0;
  const contacts = (
    await queryAll({
      KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':p': practiceId, ':prefix': CONTACT_PREFIX },
    })
  ).map(contactFromItem);
  for (const c of contacts) {
    for (const Item of contactCopies(practiceId, c)) await documentClient().send(new PutCommand({ TableName: tableName(), Item }));
  }
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: CONTACT_NUMBERS_MARKER, entityType: 'CONTACT_NUMBERS_MARKER', indexed: true, names: true },
    }),
  );
  return contacts.length;
}
