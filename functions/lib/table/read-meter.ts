import { AsyncLocalStorage } from 'node:async_hooks';
import { INDEXES } from './definition.js';

/**
 * Items one request reads through the data layer: a Query or Scan counts every item it evaluated
 * (ScannedCount, what DynamoDB bills, filters included), a GetItem its item, a batch or
 * transactional get each item returned. A screen's list must stay a page however large the
 * practice grows; this is how a test (and a local developer, by a response header) sees that.
 */
interface Meter {
  items: number;
  written: number;
  indexWritten: number;
  scanAllowed: boolean;
  /** The longest chain of table calls so far each of which began after the one before it ended. */
  roundTrips: number;
  /** Table calls out now, since when at least one has been, and the milliseconds of the request spent so. */
  callsOut: number;
  outSince: number;
  tableMs: number;
}

const newMeter = (scanAllowed: boolean, roundTrips = 0): Meter => ({
  items: 0,
  written: 0,
  indexWritten: 0,
  scanAllowed,
  roundTrips,
  callsOut: 0,
  outSince: 0,
  tableMs: 0,
});

/**
 * What the whole process read and wrote since it started, requests and background work (stream
 * consumers, jobs) alike: the load bench samples it each second for a practice's peak units.
 */
const processTotals = { read: 0, written: 0, indexWritten: 0 };

const storage = new AsyncLocalStorage<Meter>();

/** The header the local runtime answers each API request with, carrying its items read. */
export const ITEMS_READ_HEADER = 'x-tidewell-items-read';
/**
 * The table calls the request waited on one after another (its longest chain of calls each begun
 * after the last answered): what its latency is made of, however many calls went out side by side.
 */
export const ROUND_TRIPS_HEADER = 'x-tidewell-round-trips';
/**
 * The milliseconds of the request during which at least one table call was out (calls side by side
 * counted once): with the request's latency, how much of it is the table's and how much the code's.
 */
export const TABLE_MS_HEADER = 'x-tidewell-table-ms';
/** Its write units beside it: 1 KB of a put, 1 per update or delete, twice in a transaction. */
export const ITEMS_WRITTEN_HEADER = 'x-tidewell-write-units';
/** The write units its writes cost in the table's indexes, billed on top of the table's own. */
export const INDEX_WRITTEN_HEADER = 'x-tidewell-index-write-units';

export function withReadMeter<T>(work: () => Promise<T>): Promise<T> {
  return storage.run(newMeter(false), work);
}

/** Maintenance work (exports, sweeps, backfills) may Scan; a request handler may not. */
export function allowScan<T>(work: () => Promise<T>): Promise<T> {
  const outer = storage.getStore();
  return storage.run(newMeter(true, outer?.roundTrips ?? 0), async () => {
    try {
      return await work();
    } finally {
      if (outer) {
        const inner = storage.getStore()!;
        outer.items += inner.items;
        outer.written += inner.written;
        outer.indexWritten += inner.indexWritten;
        outer.roundTrips = Math.max(outer.roundTrips, inner.roundTrips);
        // Approximate when the outer request had calls of its own out at the same time; maintenance inside a request is rare.
        outer.tableMs += inner.tableMs;
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

export function indexWriteUnits(): number {
  return storage.getStore()?.indexWritten ?? 0;
}

export function roundTrips(): number {
  return storage.getStore()?.roundTrips ?? 0;
}

export function tableWaitMs(): number {
  return storage.getStore()?.tableMs ?? 0;
}

export function meterTotals(): { read: number; written: number; indexWritten: number } {
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

type Update = { UpdateExpression?: string; ExpressionAttributeNames?: Record<string, string> };
type WriteInput = Update & {
  Item?: unknown;
  RequestItems?: Record<string, { PutRequest?: { Item?: unknown } }[]>;
  TransactItems?: { Put?: { Item?: unknown }; Update?: Update }[];
};

/** DynamoDB bills a write by each started KB of the item; an update or delete is counted as one. */
const putUnits = (item: unknown) => (item ? Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item)) / 1024)) : 1);

/** Write units by the command's name in its document client form (PutCommand for PutItemCommand too). */
function writeUnitsOf(commandName: string | undefined, input: WriteInput): number {
  switch (commandName) {
    case 'PutCommand':
      return putUnits(input.Item);
    case 'UpdateCommand':
    case 'DeleteCommand':
      return 1;
    case 'BatchWriteCommand':
      return Object.values(input.RequestItems ?? {}).reduce((n, list) => n + list.reduce((m, r) => m + putUnits(r.PutRequest?.Item), 0), 0);
    case 'TransactWriteCommand':
      return 2 * (input.TransactItems ?? []).reduce((n, t) => n + putUnits(t.Put?.Item), 0);
    default:
      return 0;
  }
}

/**
 * What a write costs in the indexes, which DynamoDB bills like the table's own writes: every index
 * is projected ALL, so a put of an item that carries an index's keys writes that whole item again
 * there. An update that sets an index's key moves the item's entry: a delete and a put, one unit
 * each (removing a key deletes the entry: one). A write whose condition fails writes no entry.
 * What the meter cannot see without the stored item is not counted: the entry a delete removes,
 * the old entry of a put that moves an item to new keys, and an update that leaves the keys alone
 * but changes an indexed item's other attributes. So these figures are a lower bound.
 */
function indexWriteUnitsOf(commandName: string | undefined, input: WriteInput): number {
  switch (commandName) {
    case 'PutCommand':
      return indexedPutUnits(input.Item);
    case 'UpdateCommand':
      return movedEntryUnits(input);
    case 'BatchWriteCommand':
      return Object.values(input.RequestItems ?? {}).reduce((n, list) => n + list.reduce((m, r) => m + indexedPutUnits(r.PutRequest?.Item), 0), 0);
    case 'TransactWriteCommand':
      return (input.TransactItems ?? []).reduce((n, t) => n + indexedPutUnits(t.Put?.Item) + (t.Update ? movedEntryUnits(t.Update) : 0), 0);
    default:
      return 0;
  }
}

const INDEX_LIST = Object.values(INDEXES);

function indexedPutUnits(item: unknown): number {
  if (!item || typeof item !== 'object') return 0;
  const keyed = INDEX_LIST.filter((i) => i.partitionKey in item && i.sortKey in item).length;
  return keyed === 0 ? 0 : keyed * putUnits(item);
}

function movedEntryUnits(update: Update): number {
  const expression = update.UpdateExpression;
  if (!expression) return 0;
  // The attribute names each clause names, #placeholders resolved: SET writes an entry at new
  // keys (and deletes the old one), REMOVE of a key only deletes it.
  const names = (clause: string) => new Set(clause.split(/[^#\w]+/).map((token) => update.ExpressionAttributeNames?.[token] ?? token));
  const clauses = expression.split(/\b(?=SET\b|REMOVE\b|ADD\b|DELETE\b)/);
  const set = names(clauses.filter((c) => !c.trim().startsWith('REMOVE')).join(' '));
  const removed = names(clauses.filter((c) => c.trim().startsWith('REMOVE')).join(' '));
  return INDEX_LIST.reduce((n, i) => {
    if (set.has(i.partitionKey) || set.has(i.sortKey)) return n + 2;
    if (removed.has(i.partitionKey) || removed.has(i.sortKey)) return n + 1;
    return n;
  }, 0);
}

/** The client middleware: counts what each read returned and each write's units, and refuses a Scan outside maintenance work. */
export const readMeterMiddleware =
  (next: (args: { input: unknown }) => Promise<{ output: unknown }>, context: { commandName?: string }) => async (args: { input: unknown }) => {
    const meter = storage.getStore();
    // The document client's commands reach the middleware under the DynamoDB operation's name
    // (PutItemCommand): one name for both forms.
    const command = context.commandName?.replace(/Items?Command$/, 'Command');
    if (command === 'ScanCommand' && meter && !meter.scanAllowed)
      throw new Error('A Scan reads the whole table: a request handler must Query a key or an index');
    // A write is billed when attempted, a failed condition included.
    const written = writeUnitsOf(command, args.input as WriteInput);
    processTotals.written += written;
    if (meter) meter.written += written;
    // This call follows every call that had answered when it began: one trip further than the longest of them.
    const depth = (meter?.roundTrips ?? 0) + 1;
    if (meter && meter.callsOut++ === 0) meter.outSince = performance.now();
    let result: { output: unknown };
    try {
      result = await next(args);
    } finally {
      if (meter) {
        meter.roundTrips = Math.max(meter.roundTrips, depth);
        if (--meter.callsOut === 0) meter.tableMs += performance.now() - meter.outSince;
      }
    }
    const indexWritten = indexWriteUnitsOf(command, args.input as WriteInput);
    processTotals.indexWritten += indexWritten;
    if (meter) meter.indexWritten += indexWritten;
    const read = countOf(result.output as Output);
    processTotals.read += read;
    if (meter) meter.items += read;
    return result;
  };
