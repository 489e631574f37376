import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Note } from '../../../shared/notes/note-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { putNoteAtVersion } from '../notes/note-at-version.js';

/** pk practiceId, sk LABORDER#<RequestGroup id> → the LAB note the order was placed from. */
export const labOrderKey = (hgId: string) => `LABORDER#${hgId}`;

/**
 * The LAB note's next version and its order's lookup item in one transaction: the item is written
 * once, the note only over the version it was read at (a failed condition is thrown to the caller).
 */
export async function writeLabOrder(practiceId: string, next: Note, seenVersion: number, hgId: string, createdAt: string): Promise<void> {
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { practiceId, sk: labOrderKey(hgId), entityType: 'LAB_ORDER', noteId: next.noteId, hgId, createdAt },
            ConditionExpression: 'attribute_not_exists(sk)',
          },
        },
        putNoteAtVersion(practiceId, next, seenVersion),
      ],
    }),
  );
}

/** The id of the LAB note an order was placed from, or null when the practice placed no such order. */
export async function labOrderNoteId(practiceId: string, hgId: string): Promise<string | null> {
  const order = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: labOrderKey(hgId) }, ConsistentRead: true }));
  return order.Item ? String(order.Item.noteId) : null;
}
