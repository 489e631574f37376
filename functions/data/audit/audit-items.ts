import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../lib/table/batch.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';

/** Writes of the audit trail's items (built by functions/lib/audit/audit-repository.ts); entries are only ever added. */
export async function putAuditItem(item: Record<string, unknown>): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: item }));
}

/** Several entries in BatchWriteItems, retrying what the table left unprocessed. */
export async function putAuditBatch(items: Record<string, unknown>[]): Promise<void> {
  await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })));
}
