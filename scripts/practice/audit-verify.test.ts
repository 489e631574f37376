import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { batchKey, buildBatch, GENESIS_HASH, lastHash, type ArchiveBatch } from '../../functions/lib/audit/archive-chain.js';
import { runCli } from './cli.js';
import { fakeContext, HARBOR, practiceRoot } from './test-support.js';

const cfn = mockClient(CloudFormationClient);
const s3 = mockClient(S3Client);
const BUCKET = 'tidewell-harbor-data-auditarchivebucket-abc';
const ARN = (name: string) => `arn:aws:cloudformation:us-east-1:111122223333:stack/${name}/1`;

beforeEach(() => {
  cfn.reset();
  s3.reset();
});

function deployed(outputs = [{ OutputKey: 'auditArchiveBucket', OutputValue: BUCKET }]) {
  cfn.on(DescribeStacksCommand, { StackName: 'Tidewell-harbor-data' }).resolves({
    Stacks: [
      {
        StackName: 'Tidewell-harbor-data',
        StackStatus: 'UPDATE_COMPLETE',
        StackId: ARN('Tidewell-harbor-data'),
        CreationTime: new Date('2026-11-01T00:00:00Z'),
        Outputs: outputs,
      },
    ],
  });
}

/** Three batches of two entries in the bucket, listed over two pages as S3 pages them. */
function archived(alter?: (batches: ArchiveBatch[]) => void) {
  const batches: ArchiveBatch[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= 3; seq++) {
    const items = [0, 1].map((i) => ({
      practiceId: HARBOR.practiceId,
      auditId: `a${seq}${i}`,
      at: `2026-11-0${seq}T10:00:0${i}.000Z`,
      action: 'read',
      entity: 'patient',
    }));
    const batch = buildBatch(HARBOR.practiceId, seq, prev, items, String(seq));
    prev = lastHash(batch);
    batches.push(batch);
  }
  alter?.(batches);
  const keys = batches.map((b) => batchKey(HARBOR.practiceId, b.seq));
  s3.on(ListObjectsV2Command, { Bucket: BUCKET, Prefix: `audit/${HARBOR.practiceId}/` })
    .resolvesOnce({ Contents: keys.slice(0, 2).map((Key) => ({ Key })), IsTruncated: true, NextContinuationToken: 'page2' })
    .resolves({ Contents: keys.slice(2).map((Key) => ({ Key })), IsTruncated: false });
  batches.forEach((b, i) => {
    s3.on(GetObjectCommand, { Bucket: BUCKET, Key: keys[i] }).callsFake(() => ({ Body: { transformToString: async () => JSON.stringify(b) } as never }));
  });
}

describe('practice audit-verify (deployed practice, S3)', () => {
  it('reads the bucket the data stack names, every page of the listing, and reports the verified chain', async () => {
    deployed();
    archived();
    const ctx = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['audit-verify', 'harbor'], ctx)).toBe(0);
    expect(ctx.lines.join('\n')).toContain(`Audit archive of ${HARBOR.practiceId}: chain verified, 6 entries in 3 batches (1–3)`);
    expect(s3.commandCalls(ListObjectsV2Command).map((c) => c.args[0].input.ContinuationToken)).toEqual([undefined, 'page2']);
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input)).toEqual(
      [1, 2, 3].map((seq) => ({ Bucket: BUCKET, Key: batchKey(HARBOR.practiceId, seq) })),
    );
    // Verification only reads.
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  it('names the first entry that does not match and exits 1', async () => {
    deployed();
    archived((batches) => {
      batches[1].entries[1].item.action = 'update';
    });
    const ctx = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['audit-verify', 'harbor'], ctx)).toBe(1);
    expect(ctx.errors.join('\n')).toContain('chain broken at entry a21 at 2026-11-02T10:00:01.000Z (batch 2, position 2): its content does not match its hash');
  });

  it('starts --from a batch and reads nothing before it', async () => {
    deployed();
    archived();
    const ctx = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['audit-verify', 'harbor', '--from', '2'], ctx)).toBe(0);
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input.Key)).toEqual([2, 3].map((seq) => batchKey(HARBOR.practiceId, seq)));
  });

  it('says what to do when the data stack predates the archive, and refuses a --from it cannot read', async () => {
    deployed([]);
    const ctx = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['audit-verify', 'harbor'], ctx)).toBe(1);
    expect(ctx.errors.join('\n')).toContain('has no auditArchiveBucket output: deploy this release');
    expect(await runCli(['audit-verify', 'harbor', '--from', 'last tuesday'], ctx)).toBe(2);
    expect(ctx.errors.join('\n')).toContain('--from takes a batch number or an ISO date');
  });
});
