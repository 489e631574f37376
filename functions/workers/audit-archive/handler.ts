import type { DynamoDBStreamEvent } from 'aws-lambda';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { archiveS3Client, s3ArchiveStore, type ArchiveStore } from '../../lib/audit/archive-s3.js';
import { log } from '../../lib/log.js';
import { documentClient } from '../../lib/table/client.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { tableName } from '../../lib/table/definition.js';
import { archiveRecords, EMPTY_HEAD, type ChainHead, type ChainHeads } from './archiver.js';

/** One item per practice (docs/access-patterns.md): sk ARCHIVEHEAD#AUDIT, the chain's last batch. */
export const ARCHIVE_HEAD_SK = 'ARCHIVEHEAD#AUDIT';

export const tableChainHeads: ChainHeads = {
  async read(practiceId) {
    const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: ARCHIVE_HEAD_SK }, ConsistentRead: true }));
    const item = out.Item as (ChainHead & Record<string, unknown>) | undefined;
    return item ? { seq: Number(item.seq), hash: String(item.hash), lastSequenceNumber: String(item.lastSequenceNumber) } : EMPTY_HEAD;
  },
  async advance(practiceId, from, to) {
    try {
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { practiceId, sk: ARCHIVE_HEAD_SK, entityType: 'AUDIT_ARCHIVE_HEAD', ...to, updatedAt: new Date().toISOString() },
          ...(from.seq === 0 ? { ConditionExpression: 'attribute_not_exists(sk)' } : { ConditionExpression: 'seq = :seq', ExpressionAttributeValues: { ':seq': from.seq } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
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
