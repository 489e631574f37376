import { createHash } from 'node:crypto';

/**
 * The audit archive: every audit entry, in the order the table committed it, appended in batches
 * to a store nobody can rewrite (S3 Object Lock deployed, the local file store's stand-in locally).
 * Each entry carries the hash of the one before it, so each batch carries the hash of the previous
 * batch: changing, dropping or reordering an archived entry breaks the chain at that entry.
 */

/** The hash before the practice's first archived entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Batches are numbered from 1; the number is the key, so two writers can never both create batch n. */
export const batchKey = (practiceId: string, seq: number) => `audit/${practiceId}/${String(seq).padStart(12, '0')}.json`;
export const batchPrefix = (practiceId: string) => `audit/${practiceId}/`;

export function seqOfKey(key: string): number | undefined {
  const match = /\/(\d{12})\.json$/.exec(key);
  return match ? Number(match[1]) : undefined;
}

export interface ArchivedEntry {
  /** The table item as written (who, what, when, from where, which patient). */
  item: Record<string, unknown>;
  /** sha256(previous entry's hash + canonical JSON of item), hex. */
  hash: string;
}

/**
 * A change to, or removal of, an audit entry in the table after it was written. The archiver
 * chains it like an entry, so the archive keeps what the entry said and when it was altered.
 */
export interface TamperRecord {
  tamper: 'changed' | 'removed';
  /** When the table committed the change (the stream's record time, to the second). */
  at: string;
  /** The table key of the entry that was altered. */
  sk: string;
  auditId?: string;
  /** When the altered entry was first written. */
  writtenAt?: string;
  /** 'dynamodb-ttl' when the table expired the item itself; 'table-write' for any caller. */
  by: 'table-write' | 'dynamodb-ttl';
  before?: Record<string, unknown>;
  /** The entry as it became (changed only). */
  after?: Record<string, unknown>;
}

export const isTamperRecord = (item: Record<string, unknown> | undefined): item is Record<string, unknown> & TamperRecord =>
  item?.tamper === 'changed' || item?.tamper === 'removed';

/** A tamper record found while verifying, named so an auditor can find the entry in the table and the archive. */
export interface TamperFinding {
  seq: number;
  index: number;
  record: TamperRecord;
  /** Attributes that differ between before and after (changed only), sorted. */
  fields: string[];
}

export interface ArchiveBatch {
  format: 1;
  practiceId: string;
  seq: number;
  /** The last entry hash of batch seq - 1 (GENESIS_HASH for batch 1). */
  prevHash: string;
  /** The stream position of the last entry, so a retried delivery is not archived twice. */
  lastSequenceNumber: string;
  entries: ArchivedEntry[];
}

/** JSON with object keys sorted at every depth, so the hash does not depend on attribute order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value instanceof Set) return canonicalJson([...(value as Set<unknown>)].map(String).sort());
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function entryHash(prevHash: string, item: Record<string, unknown>): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalJson(item)).digest('hex');
}

export function buildBatch(
  practiceId: string,
  seq: number,
  prevHash: string,
  items: readonly Record<string, unknown>[],
  lastSequenceNumber: string,
): ArchiveBatch {
  let hash = prevHash;
  const entries = items.map((item) => {
    hash = entryHash(hash, item);
    return { item, hash };
  });
  return { format: 1, practiceId, seq, prevHash, lastSequenceNumber, entries };
}

export const lastHash = (batch: ArchiveBatch) => batch.entries.at(-1)?.hash ?? batch.prevHash;

/** Where the archive is read from: S3 deployed, the local file store's folder locally. */
export interface ArchiveReader {
  /** Keys under the prefix, in key order. */
  list(prefix: string): Promise<string[]>;
  /** The object's text, or undefined when there is none. */
  get(key: string): Promise<string | undefined>;
}

export interface ChainProblem {
  seq: number;
  key: string;
  /** The entry that does not match (absent when the batch itself is missing or unreadable). */
  auditId?: string;
  at?: string;
  index?: number;
  reason: string;
}

export interface VerifyResult {
  ok: boolean;
  batches: number;
  entries: number;
  fromSeq: number;
  lastSeq: number;
  lastHash: string;
  problem?: ChainProblem;
  /** Tamper records in the batches checked, in chain order: table entries altered after they were written. */
  tampered: TamperFinding[];
}

const READ_AHEAD = 16;

export interface VerifyOptions {
  /** First batch to check: a batch number, or an ISO date (the last batch that starts before it). */
  from?: string;
}

/**
 * Recomputes the chain and names the first entry that does not match. From a later batch, that
 * batch's prevHash is taken as given and checked against every later batch (Object Lock keeps the
 * earlier ones as they were; a full run checks them too).
 */
export async function verifyChain(reader: ArchiveReader, practiceId: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const keys = (await reader.list(batchPrefix(practiceId))).filter((k) => seqOfKey(k) !== undefined).sort();
  const fromSeq = await startSeq(reader, practiceId, keys, options.from);
  let expectedPrev: string | undefined = fromSeq === 1 ? GENESIS_HASH : undefined;
  let batches = 0;
  let entries = 0;
  let seq = fromSeq;
  const tampered: TamperFinding[] = [];
  const result = (problem?: ChainProblem): VerifyResult => ({
    ok: !problem,
    batches,
    entries,
    fromSeq,
    lastSeq: seq - 1,
    lastHash: expectedPrev ?? GENESIS_HASH,
    problem,
    tampered,
  });
  const lastListed = keys.length ? seqOfKey(keys[keys.length - 1])! : 0;
  // Reads run ahead of the check (S3 answers each GET in tens of ms; ten years are millions of batches).
  const ahead = new Map<number, Promise<string | undefined>>();
  const read = (n: number) => {
    for (let next = n; next <= Math.min(lastListed, n + READ_AHEAD); next++) if (!ahead.has(next)) ahead.set(next, reader.get(batchKey(practiceId, next)));
    const text = ahead.get(n)!;
    ahead.delete(n);
    return text;
  };
  for (; seq <= lastListed; seq++) {
    const key = batchKey(practiceId, seq);
    const text = await read(seq);
    if (text === undefined) return result({ seq, key, reason: `batch ${seq} is missing (batches up to ${lastListed} exist)` });
    let batch: ArchiveBatch;
    try {
      batch = JSON.parse(text) as ArchiveBatch;
    } catch {
      return result({ seq, key, reason: `batch ${seq} is not readable JSON` });
    }
    if (batch.seq !== seq || batch.practiceId !== practiceId || !Array.isArray(batch.entries)) {
      return result({ seq, key, reason: `batch ${seq} names batch ${String(batch.seq)} of practice ${String(batch.practiceId)}` });
    }
    if (expectedPrev !== undefined && batch.prevHash !== expectedPrev) {
      return result({ seq, key, reason: `batch ${seq} does not carry the hash of batch ${seq - 1}`, ...entryName(batch, 0) });
    }
    let hash = batch.prevHash;
    for (let index = 0; index < batch.entries.length; index++) {
      const entry = batch.entries[index];
      hash = entryHash(hash, entry.item ?? {});
      if (hash !== entry.hash) return result({ seq, key, ...entryName(batch, index), reason: 'its content does not match its hash' });
      if (isTamperRecord(entry.item)) tampered.push({ seq, index, record: entry.item, fields: changedFields(entry.item) });
    }
    expectedPrev = hash;
    batches++;
    entries += batch.entries.length;
  }
  return result();
}

function changedFields(record: TamperRecord): string[] {
  if (record.tamper !== 'changed') return [];
  const before = record.before ?? {};
  const after = record.after ?? {};
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => canonicalJson(before[k]) !== canonicalJson(after[k])).sort();
}

function entryName(batch: ArchiveBatch, index: number): Pick<ChainProblem, 'auditId' | 'at' | 'index'> {
  const item = batch.entries[index]?.item;
  return { index, ...(typeof item?.auditId === 'string' ? { auditId: item.auditId } : {}), ...(typeof item?.at === 'string' ? { at: item.at } : {}) };
}

async function startSeq(reader: ArchiveReader, practiceId: string, keys: string[], from: string | undefined): Promise<number> {
  if (!from) return 1;
  if (/^\d+$/.test(from)) return Math.max(1, Number(from));
  const date = Date.parse(from);
  if (Number.isNaN(date)) throw new Error(`--from takes a batch number or an ISO date, not "${from}"`);
  // Batches follow commit order, so a binary search on each batch's first entry finds the start in log2(n) reads.
  const seqs = keys.map((k) => seqOfKey(k)!);
  let lo = 0;
  let hi = seqs.length - 1;
  let found = seqs[0] ?? 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const text = await reader.get(batchKey(practiceId, seqs[mid]));
    const first = text ? (JSON.parse(text) as ArchiveBatch).entries[0]?.item.at : undefined;
    if (typeof first === 'string' && Date.parse(first) < date) {
      found = seqs[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export function describeResult(result: VerifyResult, practiceId: string): string {
  if (result.ok) {
    return `Audit archive of ${practiceId}: chain verified, ${result.entries} entries in ${result.batches} batches (${result.fromSeq}–${result.lastSeq}), last hash ${result.lastHash}`;
  }
  const p = result.problem!;
  const entry = p.auditId ? `entry ${p.auditId}${p.at ? ` at ${p.at}` : ''} (batch ${p.seq}, position ${(p.index ?? 0) + 1})` : `batch ${p.seq}`;
  return `Audit archive of ${practiceId}: chain broken at ${entry}: ${p.reason} [${p.key}]; ${result.entries} entries before it verified`;
}

const shown = (value: unknown) => (value === undefined ? '(none)' : canonicalJson(value));

/**
 * One line per tamper record, for the auditor: which entry, when it was written, when it was
 * changed or removed, and for a change each attribute's archived and new value.
 */
export function describeTampering(result: VerifyResult): string[] {
  if (!result.tampered.length) return [];
  const n = result.tampered.length;
  return [
    `${n} audit ${n === 1 ? 'entry was' : 'entries were'} changed or removed in the table after being written (the archive keeps what ${n === 1 ? 'it' : 'they'} said):`,
    ...result.tampered.map(({ seq, index, record, fields }) => {
      const entry = `entry ${record.auditId ?? record.sk}${record.writtenAt ? ` written ${record.writtenAt}` : ''}`;
      const where = `(tamper record in batch ${seq}, position ${index + 1})`;
      const by = record.by === 'dynamodb-ttl' ? " by the table's TTL expiry" : '';
      if (record.tamper === 'removed') return `  - ${entry} removed at ${record.at}${by} ${where}`;
      const diff = fields.map((f) => `${f}: ${shown(record.before?.[f])} → ${shown(record.after?.[f])}`).join('; ');
      return `  - ${entry} changed at ${record.at} ${where}: ${diff || 'no attribute differs'}`;
    }),
  ];
}
