import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Items one request reads through the data layer: a Query or Scan counts every item it evaluated
 * (ScannedCount, what DynamoDB bills, filters included), a GetItem its item, a batch or
 * transactional get each item returned. A screen's list must stay a page however large the
 * practice grows; this is how a test (and a local developer, by a response header) sees that.
 */
interface Meter {
  items: number;
  written: number;
  scanAllowed: boolean;
}

/**
 * What the whole process read and wrote since it started, requests and background work (stream
 * consumers, jobs) alike: the load bench samples it each second for a practice's peak units.
 */
const processTotals = { read: 0, written: 0 };

const storage = new AsyncLocalStorage<Meter>();

/** The header the local runtime answers each API request with, carrying its items read. */
export const ITEMS_READ_HEADER = 'x-tidewell-items-read';
/** Its write units beside it: 1 KB of a put, 1 per update or delete, twice in a transaction. */
export const ITEMS_WRITTEN_HEADER = 'x-tidewell-write-units';

export function withReadMeter<T>(work: () => Promise<T>): Promise<T> {
  return storage.run({ items: 0, written: 0, scanAllowed: false }, work);
}

/** Maintenance work (exports, sweeps, backfills) may Scan; a request handler may not. */
export function allowScan<T>(work: () => Promise<T>): Promise<T> {
  const outer = storage.getStore();
  return storage.run({ items: 0, written: 0, scanAllowed: true }, async () => {
    try {
      return await work();
    } finally {
      if (outer) {
        outer.items += storage.getStore()!.items;
        outer.written += storage.getStore()!.written;
      }
    }
  });
}

export function itemsRead(): number {
  return storage.getStore()?.items ?? 0;
}

export function writeUnits(): number {
  return storage.getStore()?.written ?? 0;
}

export function meterTotals(): { read: number; written: number } {
  return { ...processTotals };
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

type WriteInput = {
  Item?: unknown;
  RequestItems?: Record<string, { PutRequest?: { Item?: unknown } }[]>;
  TransactItems?: { Put?: { Item?: unknown } }[];
};

/** DynamoDB bills a write by each started KB of the item; an update or delete is counted as one. */
const putUnits = (item: unknown) => (item ? Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item)) / 1024)) : 1);

/** The document client's commands reach the middleware under the DynamoDB operation's name (PutItemCommand). */
function writeUnitsOf(commandName: string | undefined, input: WriteInput): number {
  switch (commandName) {
    case 'PutItemCommand':
    case 'PutCommand':
      return putUnits(input.Item);
    case 'UpdateItemCommand':
    case 'UpdateCommand':
    case 'DeleteItemCommand':
    case 'DeleteCommand':
      return 1;
    case 'BatchWriteItemCommand':
    case 'BatchWriteCommand':
      return Object.values(input.RequestItems ?? {}).reduce((n, list) => n + list.reduce((m, r) => m + putUnits(r.PutRequest?.Item), 0), 0);
    case 'TransactWriteItemsCommand':
    case 'TransactWriteCommand':
      return 2 * (input.TransactItems ?? []).reduce((n, t) => n + putUnits(t.Put?.Item), 0);
    default:
      return 0;
  }
}

/** The client middleware: counts what each read returned and each write's units, and refuses a Scan outside maintenance work. */
export const readMeterMiddleware =
  (next: (args: { input: unknown }) => Promise<{ output: unknown }>, context: { commandName?: string }) => async (args: { input: unknown }) => {
    const meter = storage.getStore();
    if (context.commandName === 'ScanCommand' && meter && !meter.scanAllowed)
      throw new Error('A Scan reads the whole table: a request handler must Query a key or an index');
    // A write is billed when attempted, a failed condition included.
    const written = writeUnitsOf(context.commandName, args.input as WriteInput);
    processTotals.written += written;
    if (meter) meter.written += written;
    const result = await next(args);
    const read = countOf(result.output as Output);
    processTotals.read += read;
    if (meter) meter.items += read;
    return result;
  };
