import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { startLocalDynamo, type LocalDynamo, type LocalDynamoOptions } from './local-dynamodb.js';

export interface ScratchTable {
  dynamo: LocalDynamo;
  client: DynamoDBClient;
  /** The folder the engine keeps its files in. */
  engineDir: string;
  stop(): Promise<void>;
}

/** A local table in a folder of its own, with a client on it, for the stand-in's own tests. */
export async function startScratchTable(tableName: string, options: Partial<Omit<LocalDynamoOptions, 'dataDir' | 'tableName'>> = {}): Promise<ScratchTable> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-scratch-'));
  const dynamo = await startLocalDynamo({ ttlSweepIntervalMs: 3_600_000, onError: () => undefined, ...options, dataDir, tableName });
  const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  return {
    dynamo,
    client,
    engineDir: join(dataDir, 'dynamodb'),
    async stop() {
      client.destroy();
      await dynamo.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One scratch table for a test file: started before its tests, stopped after them. */
export function useScratchTable(tableName: string): () => ScratchTable {
  let table: ScratchTable | undefined;
  beforeAll(async () => {
    table = await startScratchTable(tableName);
  });
  afterAll(() => table?.stop());
  return () => {
    if (!table) throw new Error(`The scratch table ${tableName} has not started`);
    return table;
  };
}
