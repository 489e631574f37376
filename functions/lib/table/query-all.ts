import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.js';
import { tableName } from './definition.js';
import type { Item } from './item.js';

/** Every item a Query matches, page after page (1 MB each), up to `max`; the table is ours unless named. */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'> & { TableName?: string },
  max = Number.POSITIVE_INFINITY,
): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const out: QueryCommandOutput = await documentClient().send(new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey: startKey }));
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < max);
  return items.slice(0, max);
}

/** Every item of one partition of a global secondary index. */
export function queryIndexPartition(index: { indexName: string; partitionKey: string }, pk: string): Promise<Item[]> {
  return queryAll({
    IndexName: index.indexName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': index.partitionKey },
    ExpressionAttributeValues: { ':pk': pk },
  });
}
