import { engine } from './dynalite-call.js';
import type { WriteLock } from './write-lock.js';

interface SweeperOptions {
  enginePort: number;
  lock: WriteLock;
  ttl: Map<string, string>;
  keyNames: (table: string) => Promise<string[]>;
  intervalMs: number;
  onError: (error: unknown) => void;
  /** Called inside the write lock with each item the sweep deleted (the stream's REMOVE). */
  onExpired?: (table: string, key: Record<string, unknown>, item: Record<string, unknown>) => Promise<void>;
}

/**
 * DynamoDB deletes items whose TTL attribute (epoch seconds) has passed, some time after expiry;
 * the engine never does. Each delete is conditional on the item still being expired, so an item
 * rewritten with a later expiry between the scan and the delete survives.
 */
const SCAN_PAGE_ITEMS = 100;

export function startTtlSweeper(options: SweeperOptions): { sweep(): Promise<number>; stop(): Promise<void> } {
  let running: Promise<number> | undefined;
  let stopped = false;

  async function sweepTable(table: string, attribute: string): Promise<number> {
    const keys = await options.keyNames(table);
    const now = String(Math.floor(Date.now() / 1000));
    let deleted = 0;
    let startKey: unknown;
    do {
      const page = (await engine(options.enginePort, 'Scan', {
        TableName: table,
        FilterExpression: '#ttl < :now',
        ExpressionAttributeNames: { '#ttl': attribute, ...Object.fromEntries(keys.map((k, i) => [`#k${i}`, k])) },
        ExpressionAttributeValues: { ':now': { N: now } },
        ProjectionExpression: keys.map((_k, i) => `#k${i}`).join(', '),
        // Small pages, with the event loop given back between them: the engine evaluates a page
        // in one go on the API's own thread, and DynamoDB's TTL never holds up a request.
        Limit: SCAN_PAGE_ITEMS,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      })) as { Items?: Record<string, unknown>[]; LastEvaluatedKey?: unknown };
      for (const key of page.Items ?? []) {
        if (stopped) return deleted;
        const removed = await options.lock.run(async () => {
          try {
            const { Attributes } = await engine(options.enginePort, 'DeleteItem', {
              TableName: table,
              Key: key,
              ConditionExpression: '#ttl < :now',
              ExpressionAttributeNames: { '#ttl': attribute },
              ExpressionAttributeValues: { ':now': { N: now } },
              ReturnValues: 'ALL_OLD',
            });
            if (Attributes) await options.onExpired?.(table, key, Attributes as Record<string, unknown>).catch(options.onError);
            return true;
          } catch {
            return false;
          }
        });
        if (removed) deleted++;
      }
      startKey = page.LastEvaluatedKey;
      if (startKey) await new Promise<void>((resolve) => setImmediate(resolve));
    } while (startKey && !stopped);
    return deleted;
  }

  async function sweepAll(): Promise<number> {
    let total = 0;
    for (const [table, attribute] of options.ttl) total += await sweepTable(table, attribute);
    return total;
  }

  function sweep(): Promise<number> {
    if (!running) {
      running = sweepAll().finally(() => {
        running = undefined;
      });
    }
    return running;
  }

  const timer = setInterval(() => {
    sweep().catch(options.onError);
  }, options.intervalMs);
  timer.unref();

  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
