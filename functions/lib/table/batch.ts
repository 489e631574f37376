import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.js';
import { tableName } from './definition.js';

type Item = Record<string, unknown>;
export type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

/** DynamoDB's limits per BatchWriteItem and per BatchGetItem. */
const WRITES_PER_BATCH = 25;
const KEYS_PER_BATCH = 100;
const ATTEMPTS = 10;

/** Throttled parts come back unprocessed; waiting longer each time lets the partition recover. */
const backOff = (attempt: number) => (attempt > 0 ? new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 10)) : undefined);

/** Writes every request, in BatchWriteItems of 25, retrying what the table left unprocessed. */
export async function batchWriteAll(requests: readonly WriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += WRITES_PER_BATCH) {
    let left: WriteRequest[] | undefined = requests.slice(i, i + WRITES_PER_BATCH);
    for (let attempt = 0; left && left.length > 0 && attempt < ATTEMPTS; attempt++) {
      await backOff(attempt);
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: left } }));
      left = out.UnprocessedItems?.[tableName()] as WriteRequest[] | undefined;
    }
    if (left && left.length > 0) throw new Error('BatchWrite left items unprocessed');
  }
}

/** The items found for `keys`, strongly consistent, in BatchGetItems of 100, in no particular order. */
export async function batchGetAll(keys: readonly Item[]): Promise<Item[]> {
  const found: Item[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_BATCH) {
    let left: Item[] | undefined = keys.slice(i, i + KEYS_PER_BATCH);
    for (let attempt = 0; left && left.length > 0 && attempt < ATTEMPTS; attempt++) {
      await backOff(attempt);
      const out = await documentClient().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: left, ConsistentRead: true } } }));
      found.push(...(out.Responses?.[tableName()] ?? []));
      left = out.UnprocessedKeys?.[tableName()]?.Keys as Item[] | undefined;
    }
    if (left && left.length > 0) throw new Error('BatchGet left keys unprocessed');
  }
  return found;
}
