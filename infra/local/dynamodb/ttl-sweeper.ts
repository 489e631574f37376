import { engine } from './dynalite-call.js';
import { SerialQueue } from './serial-queue.js';
import { itemLockId, type WriteLocks } from './write-locks.js';

interface SweeperOptions {
  enginePort: number;
  locks: WriteLocks;
  ttl: Map<string, string>;
  keyNames: (table: string) => Promise<string[]>;
  intervalMs: number;
  /** Items a timed sweep reads at most; TTL_SWEEP_ITEMS_PER_TICK unless given. */
  itemsPerTick?: number;
  onError: (error: unknown) => void;
  /** Called holding the item's write lock with each item the sweep deleted (the stream's REMOVE). */
  onExpired?: (table: string, key: Record<string, unknown>, item: Record<string, unknown>) => Promise<void>;
}

/**
 * DynamoDB deletes items whose TTL attribute (epoch seconds) has passed, some time after expiry;
 * the engine never does. Each delete is conditional on the item still being expired, so an item
 * rewritten with a later expiry between the scan and the delete survives.
 */
const SCAN_PAGE_ITEMS = 100;

/**
 * Items one timed sweep reads at most, resuming where the last one stopped. A whole-table Scan
 * every few seconds held the API's thread: with the 5k load shape's 805,000 items every sweep read
 * them all, and the 50-staff load run's draft save p95 went from 790 ms to 5.2 s. A crawl of this
 * many items a tick goes through that table in about half an hour at the default 10 s interval;
 * DynamoDB itself deletes expired items within days, and readers filter them out meanwhile.
 */
export const TTL_SWEEP_ITEMS_PER_TICK = 5_000;

type ScanKey = Record<string, unknown>;

export function startTtlSweeper(options: SweeperOptions): { sweep(): Promise<number>; stop(): Promise<void> } {
  /** One sweep or crawl at a time; each waits for the one before. */
  const sweeps = new SerialQueue();
  let busy = false;
  let stopped = false;
  /** Where the timed crawl goes on in each table; absent means from the start. */
  const cursors = new Map<string, ScanKey>();

  /** Scans from `startKey` until the table ends or `budget` items were read; deletes the expired. */
  async function sweepFrom(table: string, attribute: string, startKey: ScanKey | undefined, budget: number): Promise<{ deleted: number; next?: ScanKey }> {
    const keys = await options.keyNames(table);
    const now = String(Math.floor(Date.now() / 1000));
    let deleted = 0;
    let read = 0;
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
      })) as { Items?: Record<string, unknown>[]; LastEvaluatedKey?: ScanKey };
      read += SCAN_PAGE_ITEMS;
      for (const key of page.Items ?? []) {
        if (stopped) return { deleted };
        const id = itemLockId(table, keys, key);
        const remove = async () => {
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
        };
        const removed = await (id ? options.locks.items([id], remove) : options.locks.all(remove));
        if (removed) deleted++;
      }
      startKey = page.LastEvaluatedKey;
      if (startKey) await new Promise<void>((resolve) => setImmediate(resolve));
    } while (startKey && !stopped && read < budget);
    return { deleted, next: startKey };
  }

  /** One pass over every table from its start: what `sweepTtl()` asks for. */
  async function sweepAll(): Promise<number> {
    let total = 0;
    for (const [table, attribute] of options.ttl) total += (await sweepFrom(table, attribute, undefined, Infinity)).deleted;
    return total;
  }

  /** The timed sweep: a bounded stretch of each table, from where the last one stopped. */
  async function crawl(): Promise<void> {
    for (const [table, attribute] of options.ttl) {
      const { next } = await sweepFrom(table, attribute, cursors.get(table), options.itemsPerTick ?? TTL_SWEEP_ITEMS_PER_TICK);
      if (next) cursors.set(table, next);
      else cursors.delete(table);
    }
  }

  function sweep(): Promise<number> {
    return sweeps.run(sweepAll);
  }

  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sweeps
      .run(crawl)
      .catch(options.onError)
      .finally(() => {
        busy = false;
      });
  }, options.intervalMs);
  timer.unref();

  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await sweeps.idle();
    },
  };
}
