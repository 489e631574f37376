import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Items one request reads through the data layer: a Query or Scan counts every item it evaluated
 * (ScannedCount, what DynamoDB bills, filters included), a GetItem its item, a batch or
 * transactional get each item returned. A screen's list must stay a page however large the
 * practice grows; this is how a test (and a local developer, by a response header) sees that.
 */
interface Meter {
  items: number;
  scanAllowed: boolean;
}

const storage = new AsyncLocalStorage<Meter>();

/** The header the local runtime answers each API request with, carrying its items read. */
export const ITEMS_READ_HEADER = 'x-tidewell-items-read';

export function withReadMeter<T>(work: () => Promise<T>): Promise<T> {
  return storage.run({ items: 0, scanAllowed: false }, work);
}

/** Maintenance work (exports, sweeps, backfills) may Scan; a request handler may not. */
export function allowScan<T>(work: () => Promise<T>): Promise<T> {
  const outer = storage.getStore();
  return storage.run({ items: 0, scanAllowed: true }, async () => {
    try {
      return await work();
    } finally {
      if (outer) outer.items += storage.getStore()!.items;
    }
  });
}

export function itemsRead(): number {
  return storage.getStore()?.items ?? 0;
}

type Output = { Item?: unknown; Items?: unknown[]; ScannedCount?: number; Responses?: unknown };

function countOf(output: Output): number {
  if (typeof output.ScannedCount === 'number') return output.ScannedCount;
  if (Array.isArray(output.Items)) return output.Items.length;
  if (output.Item) return 1;
  const r = output.Responses;
  if (Array.isArray(r)) return r.filter((x: { Item?: unknown }) => x?.Item).length;
  if (r && typeof r === 'object') return Object.values(r as Record<string, unknown[]>).reduce((n, list) => n + (Array.isArray(list) ? list.length : 0), 0);
  return 0;
}

/** The client middleware: counts what each read returned, and refuses a Scan outside maintenance work. */
export const readMeterMiddleware =
  (next: (args: { input: unknown }) => Promise<{ output: unknown }>, context: { commandName?: string }) =>
  async (args: { input: unknown }) => {
    const meter = storage.getStore();
    if (context.commandName === 'ScanCommand' && meter && !meter.scanAllowed) throw new Error('A Scan reads the whole table: a request handler must Query a key or an index');
    const result = await next(args);
    if (meter) meter.items += countOf(result.output as Output);
    return result;
  };
