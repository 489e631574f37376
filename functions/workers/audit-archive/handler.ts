import type { DynamoDBStreamEvent } from 'aws-lambda';
import { archiveS3Client, s3ArchiveStore, type ArchiveStore } from '../../lib/audit/archive-s3.js';
import { log } from '../../lib/log.js';
import { advanceArchiveHead, getArchiveHead } from '../../data/audit/archive-head.js';
import { archiveRecords, EMPTY_HEAD, type ChainHeads } from './archiver.js';

export const tableChainHeads: ChainHeads = {
  read: async (practiceId) => (await getArchiveHead(practiceId)) ?? EMPTY_HEAD,
  advance: (practiceId, from, to) => advanceArchiveHead(practiceId, from.seq, to),
};

let envStore: { key: string; store: ArchiveStore } | undefined;

/** One client per instance; a process that runs one local runtime after another gets the current endpoint's. */
function storeFromEnv(): ArchiveStore {
  const bucket = process.env.AUDIT_ARCHIVE_BUCKET;
  if (!bucket) throw new Error('AUDIT_ARCHIVE_BUCKET is not set');
  const key = `${bucket} ${process.env.S3_ENDPOINT ?? ''}`;
  if (envStore?.key !== key) envStore = { key, store: s3ArchiveStore(archiveS3Client(), bucket) };
  return envStore.store;
}

/** A failure throws: the stream retries the whole batch, in order, and nothing after it runs first. */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  try {
    await archiveRecords(event.Records ?? [], { store: storeFromEnv(), heads: tableChainHeads });
  } catch (error) {
    log.error('audit archive failed', { error: (error as Error)?.name, detail: (error as Error)?.message, records: event.Records?.length ?? 0 });
    throw error;
  }
};
