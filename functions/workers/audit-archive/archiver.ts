import type { DynamoDBRecord } from 'aws-lambda';
import { batchKey, buildBatch, GENESIS_HASH, lastHash, type ArchiveBatch, type TamperRecord } from '../../lib/audit/archive-chain.js';
import type { ArchiveStore } from '../../lib/audit/archive-s3.js';
import { fromStreamImage, type StreamImage } from '../../lib/table/stream.js';

/** Where the chain stands: the last batch written, its last entry hash and stream position. */
export interface ChainHead {
  seq: number;
  hash: string;
  lastSequenceNumber: string;
}

export const EMPTY_HEAD: ChainHead = { seq: 0, hash: GENESIS_HASH, lastSequenceNumber: '0' };

export interface ChainHeads {
  read(practiceId: string): Promise<ChainHead>;
  /** Moves the head from `from` to `to`; false when another invocation moved it first. */
  advance(practiceId: string, from: ChainHead, to: ChainHead): Promise<boolean>;
}

export interface ArchiverDeps {
  store: ArchiveStore;
  heads: ChainHeads;
}

const seqNo = (record: DynamoDBRecord) => BigInt(record.dynamodb?.SequenceNumber ?? '0');

const isAuditImage = (image: StreamImage | undefined) => image?.entityType?.S === 'AUDIT';
const isAuditKey = (keys: StreamImage | undefined) => keys?.sk?.S?.startsWith('AUDIT#') === true;

/**
 * Whether the record belongs in the chain: a new audit entry, or any change to or removal of an
 * item at an audit entry's key (whatever it now says it is). The stream filter passes the same
 * records; checking here too keeps a wider filter from archiving anything else.
 */
function archivable(record: DynamoDBRecord): boolean {
  const data = record.dynamodb;
  if (record.eventName === 'INSERT') return isAuditImage(data?.NewImage as StreamImage | undefined);
  if (record.eventName === 'MODIFY' || record.eventName === 'REMOVE') {
    return isAuditKey(data?.Keys as StreamImage | undefined) || isAuditImage(data?.OldImage as StreamImage | undefined);
  }
  return false;
}

function practiceOf(record: DynamoDBRecord): string | undefined {
  const data = record.dynamodb;
  return ((data?.Keys ?? data?.NewImage ?? data?.OldImage) as StreamImage | undefined)?.practiceId?.S;
}

/**
 * What the chain stores for a record: a new entry as written, or a tamper record that keeps the
 * entry as it was (and as it became), so the archive still says what the table no longer does.
 */
function archivedItem(record: DynamoDBRecord): Record<string, unknown> {
  const data = record.dynamodb!;
  if (record.eventName === 'INSERT') return fromStreamImage(data.NewImage as StreamImage);
  const before = data.OldImage ? fromStreamImage(data.OldImage as StreamImage) : undefined;
  const after = record.eventName === 'MODIFY' && data.NewImage ? fromStreamImage(data.NewImage as StreamImage) : undefined;
  const keys = fromStreamImage((data.Keys ?? {}) as StreamImage);
  const changedAt = data.ApproximateCreationDateTime ? new Date(data.ApproximateCreationDateTime * 1000).toISOString() : new Date().toISOString();
  const tamper: TamperRecord = {
    tamper: record.eventName === 'MODIFY' ? 'changed' : 'removed',
    at: changedAt,
    sk: String(keys.sk ?? before?.sk ?? ''),
    ...(typeof before?.auditId === 'string' ? { auditId: before.auditId } : {}),
    ...(typeof before?.at === 'string' ? { writtenAt: before.at } : {}),
    // A TTL expiry is the table's own doing; anything else was a caller with write access.
    by: record.userIdentity?.principalId === 'dynamodb.amazonaws.com' ? 'dynamodb-ttl' : 'table-write',
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
  };
  return tamper as unknown as Record<string, unknown>;
}
const headOf = (batch: ArchiveBatch): ChainHead => ({ seq: batch.seq, hash: lastHash(batch), lastSequenceNumber: batch.lastSequenceNumber });

/**
 * Appends the batch's audit entries (and tamper records of changed or removed ones) to each practice's chain as one archive object. The object's
 * key is the next batch number and is created only if absent, and the head moves only from where
 * it was read, so two invocations cannot fork the chain. A retried delivery skips what the head
 * says is archived; a batch written just before a crash is read back and the head moved to it.
 */
export async function archiveRecords(records: readonly DynamoDBRecord[], deps: ArchiverDeps): Promise<{ written: number; entries: number }> {
  const byPractice = new Map<string, DynamoDBRecord[]>();
  for (const record of records) {
    const practiceId = practiceOf(record);
    if (!practiceId || !archivable(record)) continue;
    byPractice.set(practiceId, [...(byPractice.get(practiceId) ?? []), record]);
  }
  let written = 0;
  let entries = 0;
  for (const [practiceId, list] of byPractice) {
    for (let attempt = 0; ; attempt++) {
      if (attempt >= 5) throw new Error(`audit archive of ${practiceId}: the chain head kept moving`);
      const head = await deps.heads.read(practiceId);
      const fresh = list.filter((r) => seqNo(r) > BigInt(head.lastSequenceNumber));
      if (!fresh.length) break;
      const items = fresh.map(archivedItem);
      const batch = buildBatch(practiceId, head.seq + 1, head.hash, items, fresh[fresh.length - 1].dynamodb!.SequenceNumber!);
      const key = batchKey(practiceId, batch.seq);
      if (await deps.store.putIfAbsent(key, JSON.stringify(batch))) {
        if (!(await deps.heads.advance(practiceId, head, headOf(batch))))
          throw new Error(`audit archive of ${practiceId}: batch ${batch.seq} written but the head moved`);
        written++;
        entries += items.length;
        break;
      }
      // Batch n exists already (an earlier attempt wrote it, then stopped): the head catches up to it.
      const existing = await deps.store.get(key);
      if (!existing) throw new Error(`audit archive of ${practiceId}: batch ${batch.seq} exists but cannot be read`);
      await deps.heads.advance(practiceId, head, headOf(JSON.parse(existing) as ArchiveBatch));
    }
  }
  return { written, entries };
}
