import { describe, expect, it } from 'vitest';
import {
  batchKey,
  buildBatch,
  canonicalJson,
  describeResult,
  GENESIS_HASH,
  lastHash,
  verifyChain,
  type ArchiveBatch,
  type ArchiveReader,
} from './archive-chain.js';

const PRACTICE = 'prc_demo';

function entry(n: number, day = 1): Record<string, unknown> {
  return {
    practiceId: PRACTICE,
    auditId: `a${n}`,
    at: new Date(Date.UTC(2026, 10, day, 9, 0, n)).toISOString(),
    action: 'read',
    entity: 'patient',
    patientId: `p${n}`,
  };
}

/** Batches of three entries, batch b on day b, as the archiver writes them. */
function archive(batches: number): Map<string, string> {
  const objects = new Map<string, string>();
  let prev = GENESIS_HASH;
  for (let b = 1; b <= batches; b++) {
    const batch = buildBatch(
      PRACTICE,
      b,
      prev,
      [0, 1, 2].map((i) => entry(b * 10 + i, b)),
      String(b),
    );
    objects.set(batchKey(PRACTICE, b), JSON.stringify(batch));
    prev = lastHash(batch);
  }
  return objects;
}

const reader = (objects: Map<string, string>): ArchiveReader & { reads: string[] } => {
  const reads: string[] = [];
  return {
    reads,
    list: async (prefix) => [...objects.keys()].filter((k) => k.startsWith(prefix)).sort(),
    get: async (key) => {
      reads.push(key);
      return objects.get(key);
    },
  };
};

function edit(objects: Map<string, string>, seq: number, change: (b: ArchiveBatch) => void) {
  const batch = JSON.parse(objects.get(batchKey(PRACTICE, seq))!) as ArchiveBatch;
  change(batch);
  objects.set(batchKey(PRACTICE, seq), JSON.stringify(batch));
}

describe('audit archive hash chain', () => {
  it('verifies an untouched archive', async () => {
    const result = await verifyChain(reader(archive(4)), PRACTICE);
    expect(result).toMatchObject({ ok: true, batches: 4, entries: 12, fromSeq: 1, lastSeq: 4 });
    expect(describeResult(result, PRACTICE)).toContain('chain verified, 12 entries in 4 batches');
  });

  it('names the first altered entry', async () => {
    const objects = archive(4);
    edit(objects, 3, (b) => {
      b.entries[1].item.action = 'list';
    });
    const result = await verifyChain(reader(objects), PRACTICE);
    expect(result).toMatchObject({ ok: false, entries: 6, problem: { seq: 3, auditId: 'a31', index: 1, reason: 'its content does not match its hash' } });
    expect(describeResult(result, PRACTICE)).toContain('chain broken at entry a31');
  });

  it('names an entry whose hash was recomputed to hide an edit: the next entry no longer follows it', async () => {
    const objects = archive(3);
    edit(objects, 2, (b) => {
      b.entries.splice(1, 1);
    });
    expect((await verifyChain(reader(objects), PRACTICE)).problem).toMatchObject({ seq: 2, auditId: 'a22', index: 1 });
  });

  it('names a batch that was rewritten whole (its hashes recomputed) by the next batch', async () => {
    const objects = archive(3);
    const forged = buildBatch(PRACTICE, 2, (JSON.parse(objects.get(batchKey(PRACTICE, 1))!) as ArchiveBatch).entries[2].hash, [entry(20, 2)], '2');
    objects.set(batchKey(PRACTICE, 2), JSON.stringify(forged));
    expect((await verifyChain(reader(objects), PRACTICE)).problem).toMatchObject({
      seq: 3,
      auditId: 'a30',
      reason: 'batch 3 does not carry the hash of batch 2',
    });
  });

  it('names a missing batch', async () => {
    const objects = archive(3);
    objects.delete(batchKey(PRACTICE, 2));
    expect((await verifyChain(reader(objects), PRACTICE)).problem).toMatchObject({ seq: 2, reason: 'batch 2 is missing (batches up to 3 exist)' });
  });

  it('starts --from a batch number, or from the last batch that starts before a date, reading only what it checks', async () => {
    const objects = archive(8);
    expect(await verifyChain(reader(objects), PRACTICE, { from: '6' })).toMatchObject({ ok: true, batches: 3, fromSeq: 6 });
    const r = reader(objects);
    expect(await verifyChain(r, PRACTICE, { from: '2026-11-05T12:00:00Z' })).toMatchObject({ ok: true, fromSeq: 5, batches: 4 });
    expect(r.reads.length).toBeLessThan(4 + 5);
  });

  it('hashes items whatever the order of their attributes', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x'], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, 'x'] }, b: 1 }));
  });
});
