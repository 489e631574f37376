import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';

/** Writes of the audit trail's items (built by functions/lib/audit/audit-repository.ts); entries are only ever added. */
export async function putAuditItem(item: Record<string, unknown>): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: item }));
}

/** Up to 25 items in one BatchWriteItem, retrying what the table left unprocessed. */
export async function putAuditBatch(items: Record<string, unknown>[]): Promise<void> {
  let requests: { PutRequest: { Item: Record<string, unknown> } }[] | undefined = items.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 0; requests && requests.length > 0 && attempt < 8; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 2 ** attempt * 10));
    const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
    requests = out.UnprocessedItems?.[tableName()] as typeof requests;
  }
  if (requests && requests.length > 0) throw new Error('BatchWrite left audit entries unprocessed');
}
