import { randomUUID } from 'node:crypto';
import { putOutboxEntry } from '../../data/email/email-outbox.js';
import { EmailSendFailure, SES_TRANSPORT, type EmailSender, type OutgoingEmail, type SentEmail } from './email-sender.js';

export { EMAIL_OUTBOX_PREFIX, readLocalOutbox, type OutboxEntry } from '../../data/email/email-outbox.js';
export const LOCAL_OUTBOX_TRANSPORT = 'local-outbox';
/** Set by the stack when the practice config has no email sender: sending is refused, never faked. */
export const DISABLED_TRANSPORT = 'none';

/**
 * Local stand-in for the mail service: each sent mail is recorded in the table under
 * EMAIL_OUTBOX#<sentAt>#<id>, labelled local, so a run without AWS can show what would have gone out.
 */
export class LocalOutboxEmailSender implements EmailSender {
  async send(practiceId: string, email: OutgoingEmail): Promise<SentEmail> {
    // RFC 2606 reserves .invalid: no transport can deliver there, so the stand-in refuses it the
    // way SES refuses an address, which lets a local run show what a rejected send does.
    if ([email.to, email.from].some((address) => /\.invalid$/i.test(address.trim()))) throw new EmailSendFailure('rejected', 'MessageRejected');
    const messageId = `local-${randomUUID()}`;
    const sentAt = new Date().toISOString();
    await putOutboxEntry(practiceId, { ...email, messageId, sentAt, transport: LOCAL_OUTBOX_TRANSPORT });
    return { messageId, transport: LOCAL_OUTBOX_TRANSPORT };
  }
}

let override: EmailSender | undefined;
export function setEmailSender(sender: EmailSender | undefined): void {
  override = sender;
}

/** A deployment without a configured sender refuses to send rather than pretend it did. */
export class DisabledEmailSender implements EmailSender {
  async send(): Promise<SentEmail> {
    throw new EmailSendFailure('not-configured', 'EmailNotConfigured');
  }
}

/**
 * EMAIL_TRANSPORT picks the transport: the stack sets 'ses' (with EMAIL_IDENTITY and
 * EMAIL_FROM_ADDRESS from the practice config) or 'none'; `npm start` sets nothing and gets the
 * local outbox. The SES module is loaded only when used: local runs never import it, and in the
 * Lambda bundle it is a chunk of its own that a cold start does not load.
 */
export async function emailSenderFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<EmailSender> {
  const transport = env.EMAIL_TRANSPORT || LOCAL_OUTBOX_TRANSPORT;
  if (transport === LOCAL_OUTBOX_TRANSPORT) return new LocalOutboxEmailSender();
  if (transport === DISABLED_TRANSPORT) return new DisabledEmailSender();
  if (transport === SES_TRANSPORT) {
    const { sesEmailSenderFromEnv } = await import('./ses-email.js');
    return sesEmailSenderFromEnv(env);
  }
  throw new Error(`EMAIL_TRANSPORT ${transport} is not one of ${LOCAL_OUTBOX_TRANSPORT}, ${SES_TRANSPORT}, ${DISABLED_TRANSPORT}`);
}

let fromEnv: Promise<EmailSender> | undefined;

/** The sender for this process (built once per Lambda container). */
export function emailSender(): Promise<EmailSender> {
  if (override) return Promise.resolve(override);
  fromEnv ??= emailSenderFromEnv();
  return fromEnv;
}
