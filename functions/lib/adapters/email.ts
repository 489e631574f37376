import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../table/client.js';
import { tableName } from '../table/definition.js';

export interface OutgoingEmail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentEmail {
  messageId: string;
  /** Which transport delivered it: 'local-outbox' never leaves the machine. */
  transport: string;
}

export interface EmailSender {
  send(practiceId: string, email: OutgoingEmail): Promise<SentEmail>;
}

export const EMAIL_OUTBOX_PREFIX = 'EMAIL_OUTBOX#';
export const LOCAL_OUTBOX_TRANSPORT = 'local-outbox';

/**
 * Local stand-in for the mail service: each sent mail is recorded in the table under
 * EMAIL_OUTBOX#<sentAt>#<id>, labelled local, so a run without AWS can show what would have gone out.
 */
export class LocalOutboxEmailSender implements EmailSender {
  async send(practiceId: string, email: OutgoingEmail): Promise<SentEmail> {
    const messageId = `local-${randomUUID()}`;
    const sentAt = new Date().toISOString();
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { practiceId, sk: `${EMAIL_OUTBOX_PREFIX}${sentAt}#${messageId}`, entityType: 'EMAIL_OUTBOX', transport: LOCAL_OUTBOX_TRANSPORT, messageId, sentAt, ...email },
      }),
    );
    return { messageId, transport: LOCAL_OUTBOX_TRANSPORT };
  }
}

export interface OutboxEntry extends OutgoingEmail {
  messageId: string;
  sentAt: string;
  transport: string;
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

let override: EmailSender | undefined;
export function setEmailSender(sender: EmailSender | undefined): void {
  override = sender;
}

/**
 * The sender for this process. No mail service is wired into the stack yet, so every environment
 * uses the outbox; a real transport plugs in here behind the same interface.
 */
export function emailSender(): EmailSender {
  return override ?? new LocalOutboxEmailSender();
}
