import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { backfillDatedList } from '../dated-list/dated-list-backfill.js';
import { FAX_COUNTS_KEY, FAX_LIST, FAX_PREFIX, faxNotesCount, faxNotesIndexPk } from './fax-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app
 * stack): gives the faxes written before the list was paged their index keys, counts them in all
 * and per day, and marks the counts `listed`. Until this has run, the list reads every fax.
 */
export const backfillFaxListKeys = (practiceId: string): Promise<number> => backfillDatedList(FAX_LIST, practiceId);

/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app
 * stack): puts the faxes given a note before the fax notes were indexed on their direction's
 * partition, counts them, and marks the counts `notesListed`. Until this has run, the fax notes
 * read every fax.
 */
export async function backfillFaxNoteKeys(practiceId: string): Promise<number> {
  const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: FAX_COUNTS_KEY }, ConsistentRead: true }));
  if (marker.Item?.notesListed) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': FAX_PREFIX },
    ProjectionExpression: 'sk, ident, createdAt, direction, faxNoteId, gsi2pk',
  });
  const counts: Record<string, number> = { [faxNotesCount('INBOUND')]: 0, [faxNotesCount('OUTBOUND')]: 0 };
  for (const item of items) {
    if (typeof item.faxNoteId !== 'string' || !item.faxNoteId) continue;
    const direction = String(item.direction);
    counts[faxNotesCount(direction)] = (counts[faxNotesCount(direction)] ?? 0) + 1;
    if (item.gsi2pk !== undefined) continue;
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: item.sk },
        UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
        ExpressionAttributeValues: { ':pk': faxNotesIndexPk(practiceId, direction), ':sk': `${String(item.createdAt)}#${String(item.ident)}` },
      }),
    );
  }
  const names = Object.keys(counts);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: FAX_COUNTS_KEY },
      UpdateExpression: `SET entityType = :e, notesListed = :y, ${names.map((_, i) => `#n${i} = :n${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
      ExpressionAttributeValues: { ':e': 'FAX_COUNTS', ':y': true, ...Object.fromEntries(names.map((n, i) => [`:n${i}`, counts[n]])) },
    }),
  );
  return items.length;
}
