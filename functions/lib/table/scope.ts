import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** A table other than the process's own (TABLE_NAME, DYNAMODB_ENDPOINT) and the client that reaches it. */
export interface TableScope {
  tableName: string;
  client: DynamoDBDocumentClient;
}

const storage = new AsyncLocalStorage<TableScope>();

/**
 * Runs `work` against `scope`: every documentClient() and tableName() inside it, however deep,
 * answers the scope's. The deploy tooling backfills several practices' tables at once in one
 * process, so a table chosen through process.env would leak from one practice into another.
 */
export function withTable<T>(scope: TableScope, work: () => Promise<T>): Promise<T> {
  return storage.run(scope, work);
}

export function currentTableScope(): TableScope | undefined {
  return storage.getStore();
}
