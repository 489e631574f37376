import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';

/** A code set's manifest item: pk practiceId, sk CODESET#<KIND>, naming its object in the files bucket (functions/lib/code-sets/code-set-store.ts). */
export const codeSetManifestKey = (kind: string) => `CODESET#${kind.toUpperCase()}`;

export async function getManifestItem(practiceId: string, kind: string): Promise<Record<string, unknown> | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: codeSetManifestKey(kind) }, ConsistentRead: true }));
  return out.Item;
}

export async function putManifestItem(practiceId: string, kind: string, manifest: object): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { practiceId, sk: codeSetManifestKey(kind), entityType: 'CODESET', ...manifest } }),
  );
}
