/**
 * `npx tsx test/bench/audit-archive-bench.ts [--entries 20000] [--batch 100]`
 *
 * The audit archiver's figures: entries/s it appends (the real archiver code, hash chain and
 * conditional create, into the local file store's Object Lock stand-in over the S3 API; the chain
 * head kept in memory, where deployed it is one DynamoDB GetItem and PutItem per batch), bytes per
 * archived entry, and entries/s that audit-verify recomputes reading the store back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { DynamoDBRecord } from 'aws-lambda';
import { verifyChain } from '../../functions/lib/audit/archive-chain.js';
import { archiveS3Client, s3ArchiveStore } from '../../functions/lib/audit/archive-s3.js';
import { archiveRecords, EMPTY_HEAD, type ChainHead, type ChainHeads } from '../../functions/workers/audit-archive/archiver.js';
import { localArchiveReader } from '../../infra/local/files/local-archive.js';
import { startLocalS3 } from '../../infra/local/files/local-s3.js';

const PRACTICE = 'prc_bench';
const BUCKET = 'tidewell-bench-audit-archive';

/** An audit entry as the API writes it for a chart read (who, what, when, from where, which patient). */
function record(n: number): DynamoDBRecord {
  const at = new Date(Date.UTC(2026, 11, 1, 9) + n * 37).toISOString();
  const id = `${n.toString(16).padStart(8, '0')}-4b1e-4c2a-9d3f-7a1c2e9b${(n % 10000).toString().padStart(4, '0')}`;
  const patientId = `pat_${(n % 5000).toString(36).padStart(8, '0')}`;
  return {
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: String(100000000000000000000n + BigInt(n)),
      NewImage: {
        practiceId: { S: PRACTICE },
        sk: { S: `AUDIT#${at}#${id}` },
        entityType: { S: 'AUDIT' },
        auditId: { S: id },
        at: { S: at },
        actorUserId: { S: '8c1f2e4a-0b7d-4f3e-9a61-2d5c7b9e1f03' },
        actorEmail: { S: 'provider@harborfamilymedicine.example' },
        actorName: { S: 'Dana Whitfield' },
        actorRole: { S: 'provider' },
        routeKey: { S: 'GET /v1/patients/{patientId}/chart/{section}' },
        sourceIp: { S: '203.0.113.54' },
        userAgent: { S: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15' },
        action: { S: 'read' },
        entity: { S: 'chart-medications' },
        entityId: { S: patientId },
        patientId: { S: patientId },
        gsi1pk: { S: `AUDIT#PATIENT#${patientId}` },
        gsi1sk: { S: at },
      },
    },
  };
}

function memoryHeads(): ChainHeads {
  let head: ChainHead = EMPTY_HEAD;
  return {
    read: async () => head,
    advance: async (_p, from, to) => {
      if (head.seq !== from.seq) return false;
      head = to;
      return true;
    },
  };
}

async function main() {
  const { values } = parseArgs({ options: { entries: { type: 'string' }, batch: { type: 'string' } } });
  const total = Number(values.entries ?? 20_000);
  const batchSize = Number(values.batch ?? 100);
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-audit-bench-'));
  const s3 = await startLocalS3({ dataDir, bucket: 'tidewell-bench-files', lockedBuckets: [BUCKET], webOrigins: ['http://localhost'], silent: true });
  try {
    const store = s3ArchiveStore(archiveS3Client({ ...process.env, S3_ENDPOINT: s3.endpoint }), BUCKET);
    const heads = memoryHeads();
    const records = Array.from({ length: total }, (_, i) => record(i));
    const tableBytes = records.reduce((sum, r) => sum + JSON.stringify(r.dynamodb!.NewImage).length, 0);

    const started = performance.now();
    for (let i = 0; i < total; i += batchSize) await archiveRecords(records.slice(i, i + batchSize), { store, heads });
    const archiveMs = performance.now() - started;

    const reader = localArchiveReader(dataDir, BUCKET);
    const keys = await reader.list(`audit/${PRACTICE}/`);
    let archivedBytes = 0;
    for (const key of keys) archivedBytes += Buffer.byteLength((await reader.get(key))!, 'utf8');

    const verifyStarted = performance.now();
    const result = await verifyChain(reader, PRACTICE);
    const verifyMs = performance.now() - verifyStarted;
    if (!result.ok || result.entries !== total) throw new Error(`verification failed: ${JSON.stringify(result.problem)}`);

    const perEntry = archivedBytes / total;
    console.log(`audit archive bench: ${total} entries in batches of ${batchSize} (${keys.length} objects), ${new Date().toISOString()}`);
    console.log(
      `  archiver (hash chain + conditional PUT to the local locked store): ${Math.round(total / (archiveMs / 1000))} entries/s, ${(archiveMs / keys.length).toFixed(1)} ms per batch`,
    );
    console.log(
      `  bytes per archived entry: ${Math.round(perEntry)} (object JSON incl. its 64-hex hash); the table item as DynamoDB JSON: ${Math.round(tableBytes / total)}`,
    );
    console.log(`  audit-verify from the file store: ${Math.round(total / (verifyMs / 1000))} entries/s`);
  } finally {
    await s3.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
