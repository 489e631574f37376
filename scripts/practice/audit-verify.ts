/**
 * `practice audit-verify <slug> [--from <batch|date>] [--local [--data-dir <dir>]]`: recomputes the
 * practice's audit archive hash chain and names the first entry that does not match. Deployed, it
 * reads the Object Lock bucket the data stack names (output auditArchiveBucket); with --local, the
 * local runtime's file store folder (default .local, or TIDEWELL_DATA_DIR).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeResult, describeTampering, verifyChain, type ArchiveReader, type VerifyResult } from '../../functions/lib/audit/archive-chain.js';
import { s3ArchiveStore } from '../../functions/lib/audit/archive-s3.js';
import { localArchiveReader } from '../../infra/local/files/local-archive.js';
import { localAuditArchiveBucket } from '../../infra/local/files/local-s3.js';
import { EXIT, UsageError, type CliContext } from './context.js';
import { loadPractice } from './practice-files.js';
import { dataStackName, readStack } from './stacks.js';

/** The data stack's output that names the archive bucket. */
export const ARCHIVE_OUTPUT = 'auditArchiveBucket';

export interface AuditVerifyOptions {
  slug: string;
  practicesDir: string;
  dryRun: boolean;
  from?: string;
  /** Read the local runtime's file store in this data folder instead of S3. */
  localDataDir?: string;
}

export async function auditVerify(ctx: CliContext, opts: AuditVerifyOptions): Promise<number> {
  if (opts.from !== undefined && !/^\d+$/.test(opts.from) && Number.isNaN(Date.parse(opts.from))) {
    throw new UsageError(`--from takes a batch number or an ISO date (2026-11-01), not "${opts.from}".`);
  }
  const config = loadPractice(opts.practicesDir, opts.slug);
  let reader: ArchiveReader;
  let where: string;
  if (opts.localDataDir !== undefined) {
    const dataDir = resolve(opts.localDataDir);
    const bucket = localAuditArchiveBucket(config.slug);
    where = `the local file store in ${dataDir} (bucket ${bucket})`;
    if (opts.dryRun) {
      ctx.out(`Would read every batch of ${where} and recompute the chain (dry run).`);
      return EXIT.ok;
    }
    if (!existsSync(dataDir)) {
      ctx.err(`There is no local data folder ${dataDir}: start the local runtime (npm start) or give --data-dir.`);
      return EXIT.failure;
    }
    reader = localArchiveReader(dataDir, bucket);
  } else {
    if (opts.dryRun) {
      ctx.out(
        `Would read the bucket named by ${dataStackName(config.slug)}'s output ${ARCHIVE_OUTPUT} in ${config.region} (DescribeStacks), then ListObjectsV2 and GetObject of audit/${config.practiceId}/ and recompute the chain (dry run, nothing is written).`,
      );
      return EXIT.ok;
    }
    const aws = ctx.aws(config.region);
    const stack = await readStack(aws.cfn, dataStackName(config.slug));
    if (!stack) {
      ctx.err(`${dataStackName(config.slug)} is not deployed in ${config.region}: deploy the practice first (npm run practice -- deploy ${config.slug}).`);
      return EXIT.failure;
    }
    const bucket = stack.outputs[ARCHIVE_OUTPUT];
    if (!bucket) {
      ctx.err(`${stack.name} has no ${ARCHIVE_OUTPUT} output: deploy this release's data stack first (npm run practice -- deploy ${config.slug}).`);
      return EXIT.failure;
    }
    where = `s3://${bucket}`;
    reader = s3ArchiveStore(aws.s3, bucket);
  }
  const result: VerifyResult = await verifyChain(reader, config.practiceId, { from: opts.from });
  if (result.ok && result.batches === 0) {
    ctx.out(`The audit archive of ${config.practiceId} in ${where} has no batches${opts.from ? ` from ${opts.from}` : ''} yet.`);
    return EXIT.ok;
  }
  (result.ok ? ctx.out : ctx.err)(describeResult(result, config.practiceId));
  // The chain can hold and still record that the table copy was altered: that is a finding too.
  for (const line of describeTampering(result)) ctx.err(line);
  return result.ok && !result.tampered.length ? EXIT.ok : EXIT.failure;
}
