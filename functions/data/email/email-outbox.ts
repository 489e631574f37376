import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { OutgoingEmail } from '../../lib/adapters/email-sender.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';

/** The local mail stand-in's outbox: one item per sent mail, sk EMAIL_OUTBOX#<sentAt>#<messageId>. */
export const EMAIL_OUTBOX_PREFIX = 'EMAIL_OUTBOX#';

export interface OutboxEntry extends OutgoingEmail {
  messageId: string;
  sentAt: string;
  transport: string;
}

export async function putOutboxEntry(practiceId: string, entry: OutboxEntry): Promise<void> {
  const { messageId, sentAt, transport, ...email } = entry;
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: `${EMAIL_OUTBOX_PREFIX}${sentAt}#${messageId}`, entityType: 'EMAIL_OUTBOX', transport, messageId, sentAt, ...email },
    }),
  );
}

/** The local outbox, oldest first (demo and tests). */
export async function readLocalOutbox(practiceId: string): Promise<OutboxEntry[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':p': practiceId, ':prefix': EMAIL_OUTBOX_PREFIX },
    }),
  );
  return (out.Items ?? []) as OutboxEntry[];
}
