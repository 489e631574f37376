import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { batchKey, describeTampering, verifyChain, type ArchiveBatch } from '../../lib/audit/archive-chain.js';
import { fromStreamImage as fromStream } from '../../lib/table/stream.js';
import type { ArchiveStore } from '../../lib/audit/archive-s3.js';
import { archiveRecords, EMPTY_HEAD, type ChainHead, type ChainHeads } from './archiver.js';

const PRACTICE = 'prc_demo';
let sequence = 1000n;

function auditRecord(n: number, extra: Record<string, { S: string }> = {}): DynamoDBRecord {
  sequence += 1n;
  const at = new Date(Date.UTC(2026, 11, 1, 9, 0, 0, n)).toISOString();
  return {
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: String(sequence).padStart(21, '0'),
      NewImage: {
        practiceId: { S: PRACTICE },
        sk: { S: `AUDIT#${at}#a${n}` },
        entityType: { S: 'AUDIT' },
        auditId: { S: `a${n}` },
        at: { S: at },
        action: { S: 'read' },
        entity: { S: 'patient' },
        patientId: { S: `p${n % 3}` },
        ...extra,
      },
    },
  };
}

/** An object store that, like Object Lock, never replaces or deletes what it holds. */
function lockedStore(): ArchiveStore & { objects: Map<string, string> } {
  const objects = new Map<string, string>();
  return {
    objects,
    async putIfAbsent(key, body) {
      if (objects.has(key)) return false;
      objects.set(key, body);
      return true;
    },
    async get(key) {
      return objects.get(key);
    },
    async list(prefix) {
      return [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    },
  };
}

function memoryHeads(): ChainHeads & { heads: Map<string, ChainHead> } {
  const heads = new Map<string, ChainHead>();
  return {
    heads,
    async read(practiceId) {
      return heads.get(practiceId) ?? EMPTY_HEAD;
    },
    async advance(practiceId, from, to) {
      if ((heads.get(practiceId)?.seq ?? 0) !== from.seq) return false;
      heads.set(practiceId, to);
      return true;
    },
  };
}

const records = (from: number, count: number) => Array.from({ length: count }, (_, i) => auditRecord(from + i));
const entriesOf = (store: ReturnType<typeof lockedStore>) =>
  [...store.objects.keys()].sort().flatMap((k) => (JSON.parse(store.objects.get(k)!) as ArchiveBatch).entries.map((e) => e.item.auditId));

describe('audit archiver', () => {
  it('appends each delivered batch as the next object of the chain, in stream order, and the chain verifies', async () => {
    const store = lockedStore();
    const heads = memoryHeads();
    await archiveRecords(records(0, 3), { store, heads });
    await archiveRecords(records(3, 2), { store, heads });
    expect([...store.objects.keys()]).toEqual([batchKey(PRACTICE, 1), batchKey(PRACTICE, 2)]);
    expect(entriesOf(store)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    const second = JSON.parse(store.objects.get(batchKey(PRACTICE, 2))!) as ArchiveBatch;
    const first = JSON.parse(store.objects.get(batchKey(PRACTICE, 1))!) as ArchiveBatch;
    expect(second.prevHash).toBe(first.entries[2].hash);
    expect(await verifyChain(store, PRACTICE)).toMatchObject({ ok: true, batches: 2, entries: 5 });
  });

  it('archives a redelivered batch once', async () => {
    const store = lockedStore();
    const heads = memoryHeads();
    const batch = records(0, 4);
    await archiveRecords(batch, { store, heads });
    // Lambda retries a batch whose invocation timed out after the work was done.
    await archiveRecords(batch, { store, heads });
    // A later delivery overlapping the last one (a partial retry) adds only what is new.
    await archiveRecords([...batch.slice(2), ...records(4, 1)], { store, heads });
    expect(entriesOf(store)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(await verifyChain(store, PRACTICE)).toMatchObject({ ok: true, entries: 5 });
  });

  it('catches the head up to a batch written just before a crash, without writing it twice', async () => {
    const store = lockedStore();
    const heads = memoryHeads();
    const batch = records(0, 3);
    let failNext = true;
    const crashing: ChainHeads = {
      read: heads.read,
      advance: async (p, from, to) => {
        if (failNext) {
          failNext = false;
          throw new Error('Task timed out');
        }
        return heads.advance(p, from, to);
      },
    };
    await expect(archiveRecords(batch, { store, heads: crashing })).rejects.toThrow('Task timed out');
    expect(heads.heads.get(PRACTICE)).toBeUndefined();
    await archiveRecords(batch, { store, heads: crashing });
    expect(store.objects.size).toBe(1);
    expect(heads.heads.get(PRACTICE)?.seq).toBe(1);
    expect(await verifyChain(store, PRACTICE)).toMatchObject({ ok: true, entries: 3 });
  });

  it('does not fork the chain when two invocations write at once', async () => {
    const store = lockedStore();
    const heads = memoryHeads();
    await Promise.allSettled([archiveRecords(records(0, 2), { store, heads }), archiveRecords(records(2, 2), { store, heads })]);
    await archiveRecords(records(4, 1), { store, heads });
    const result = await verifyChain(store, PRACTICE);
    expect(result.ok).toBe(true);
    // Every batch links to the one before it: one chain, no second batch 1.
    expect([...store.objects.keys()]).toEqual(Array.from({ length: store.objects.size }, (_, i) => batchKey(PRACTICE, i + 1)));
  });

  it('chains a change to or removal of an archived entry as a tamper record that keeps what it said', async () => {
    const store = lockedStore();
    const heads = memoryHeads();
    const original = auditRecord(1);
    await archiveRecords([original], { store, heads });
    const oldImage = original.dynamodb!.NewImage!;
    const keys = { practiceId: oldImage.practiceId, sk: oldImage.sk };
    sequence += 1n;
    const modify: DynamoDBRecord = {
      eventName: 'MODIFY',
      dynamodb: {
        SequenceNumber: String(sequence).padStart(21, '0'),
        ApproximateCreationDateTime: 1_796_000_000,
        Keys: keys,
        OldImage: oldImage,
        NewImage: { ...oldImage, patientId: { S: 'p9' } },
      },
    };
    sequence += 1n;
    const remove: DynamoDBRecord = {
      eventName: 'REMOVE',
      dynamodb: {
        SequenceNumber: String(sequence).padStart(21, '0'),
        ApproximateCreationDateTime: 1_796_000_060,
        Keys: keys,
        OldImage: { ...oldImage, patientId: { S: 'p9' } },
      },
    };
    await archiveRecords([modify, remove], { store, heads });

    const result = await verifyChain(store, PRACTICE);
    expect(result).toMatchObject({ ok: true, entries: 3 });
    expect(result.tampered.map((t) => [t.record.tamper, t.record.auditId, t.record.at, t.fields])).toEqual([
      ['changed', 'a1', new Date(1_796_000_000_000).toISOString(), ['patientId']],
      ['removed', 'a1', new Date(1_796_000_060_000).toISOString(), []],
    ]);
    expect(result.tampered[0].record).toMatchObject({ before: { patientId: 'p1' }, after: { patientId: 'p9' }, by: 'table-write' });
    expect(describeTampering(result)).toEqual([
      '2 audit entries were changed or removed in the table after being written (the archive keeps what they said):',
      `  - entry a1 written ${String(fromStream(oldImage).at)} changed at ${new Date(1_796_000_000_000).toISOString()} (tamper record in batch 2, position 1): patientId: "p1" → "p9"`,
      `  - entry a1 written ${String(fromStream(oldImage).at)} removed at ${new Date(1_796_000_060_000).toISOString()} (tamper record in batch 2, position 2)`,
    ]);
  });

  it('ignores records that are not audit entries', async () => {
    const store = lockedStore();
    const heads = memoryHeads();
    sequence += 1n;
    const other: DynamoDBRecord = {
      eventName: 'MODIFY',
      dynamodb: {
        SequenceNumber: String(sequence).padStart(21, '0'),
        Keys: { practiceId: { S: PRACTICE }, sk: { S: 'PATIENT#p1' } },
        NewImage: { practiceId: { S: PRACTICE }, sk: { S: 'PATIENT#p1' }, entityType: { S: 'PATIENT' } },
        OldImage: { practiceId: { S: PRACTICE }, sk: { S: 'PATIENT#p1' }, entityType: { S: 'PATIENT' } },
      },
    };
    const head = {
      eventName: 'INSERT' as const,
      dynamodb: { SequenceNumber: '1', NewImage: { practiceId: { S: PRACTICE }, sk: { S: 'ARCHIVEHEAD#AUDIT' }, entityType: { S: 'AUDIT_ARCHIVE_HEAD' } } },
    };
    await archiveRecords([other, head], { store, heads });
    expect(store.objects.size).toBe(0);
  });
});
