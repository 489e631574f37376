import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { createTableInput, TTL_ATTRIBUTE } from '../../../functions/lib/table/definition.js';
import { engine, EngineError } from './dynalite-call.js';
import { startEngineThread } from './engine-thread.js';
import { startDynamoProxy } from './dynamodb-proxy.js';
import { ChangeCapture } from './stream/change-capture.js';
import { LocalTableStream } from './stream/table-stream.js';
import { Transactions } from './transactions.js';
import { startTtlSweeper } from './ttl-sweeper.js';
import { WriteLocks } from './write-locks.js';

export interface LocalDynamo {
  /** What DYNAMODB_ENDPOINT points at: the proxy, never the engine itself. */
  endpoint: string;
  /** The table's change stream: workers subscribe to it as they would to DynamoDB Streams. */
  stream: LocalTableStream;
  sweepTtl(): Promise<number>;
  stop(): Promise<void>;
}

export interface LocalDynamoOptions {
  dataDir: string;
  tableName: string;
  ttlSweepIntervalMs: number;
  /** Items a timed TTL sweep reads at most before the next tick goes on. */
  ttlSweepItemsPerTick?: number;
  onError: (error: unknown) => void;
  /** Region in stream records' ARNs; default us-east-1. */
  region?: string;
}

/** The embedded table: dynalite persisted under <dataDir>/dynamodb, in a thread of its own, behind the proxy. */
export async function startLocalDynamo(options: LocalDynamoOptions): Promise<LocalDynamo> {
  const path = join(options.dataDir, 'dynamodb');
  mkdirSync(path, { recursive: true });
  const engineThread = await startEngineThread(path, options.onError);
  const enginePort = engineThread.port;

  await ensureTable(enginePort, options.tableName);

  const locks = new WriteLocks();
  const ttl = new Map([[options.tableName, TTL_ATTRIBUTE]]);
  const keys = new Transactions(enginePort);
  const stream = new LocalTableStream({
    region: options.region ?? 'us-east-1',
    deadLetterFile: join(options.dataDir, 'stream-dead-letters.jsonl'),
    onError: options.onError,
  });
  const capture = new ChangeCapture(enginePort, (table) => keys.keyNames(table), stream);
  const proxy = await startDynamoProxy({ enginePort, locks, ttl, capture });
  const sweeper = startTtlSweeper({
    enginePort,
    locks,
    ttl,
    keyNames: (table) => keys.keyNames(table),
    intervalMs: options.ttlSweepIntervalMs,
    itemsPerTick: options.ttlSweepItemsPerTick,
    onError: options.onError,
    onExpired: (table, key, item) => capture.expired(table, key, item),
  });

  return {
    endpoint: `http://127.0.0.1:${proxy.port}`,
    stream,
    sweepTtl: () => sweeper.sweep(),
    async stop() {
      await stream.stop();
      await sweeper.stop();
      await closeServer(proxy.server);
      // Wait for writes already admitted, then let the engine flush and close its store.
      await locks.idle();
      await engineThread.stop();
    },
  };
}

async function ensureTable(enginePort: number, tableName: string): Promise<void> {
  try {
    await engine(enginePort, 'DescribeTable', { TableName: tableName });
  } catch (e) {
    if (!(e instanceof EngineError) || e.type !== 'ResourceNotFoundException') throw e;
    await engine(enginePort, 'CreateTable', createTableInput(tableName));
    // The engine answers CREATING and turns the table ACTIVE on a later turn of the event loop;
    // a write before then is refused as if the table did not exist.
    while (((await engine(enginePort, 'DescribeTable', { TableName: tableName })) as { Table?: { TableStatus?: string } }).Table?.TableStatus !== 'ACTIVE') {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.closeAllConnections?.();
    server.close((err) => (err ? reject(err) : resolve()));
  });
}
