import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { tableName } from '../../lib/table/definition.js';

/** One item per practice (docs/access-patterns.md): sk ARCHIVEHEAD#AUDIT, the audit archive chain's last batch. */
export const ARCHIVE_HEAD_SK = 'ARCHIVEHEAD#AUDIT';

export interface ArchiveHead {
  seq: number;
  hash: string;
  lastSequenceNumber: string;
}

/** The chain's head, or undefined before the practice's first batch. */
export async function getArchiveHead(practiceId: string): Promise<ArchiveHead | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: ARCHIVE_HEAD_SK }, ConsistentRead: true }));
  const item = out.Item;
  return item ? { seq: Number(item.seq), hash: String(item.hash), lastSequenceNumber: String(item.lastSequenceNumber) } : undefined;
}

/** Moves the head from `fromSeq` (0: none yet) to `to`; false when another run moved it first. */
export async function advanceArchiveHead(practiceId: string, fromSeq: number, to: ArchiveHead): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { practiceId, sk: ARCHIVE_HEAD_SK, entityType: 'AUDIT_ARCHIVE_HEAD', ...to, updatedAt: new Date().toISOString() },
        ...(fromSeq === 0
          ? { ConditionExpression: 'attribute_not_exists(sk)' }
          : { ConditionExpression: 'seq = :seq', ExpressionAttributeValues: { ':seq': fromSeq } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
