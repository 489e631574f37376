import type { EmailFailureReason } from '../../../shared/notes/note-constants.js';

/*
 * The mail port: what a use case hands a transport and what it gets back. The transports (the local
 * outbox in email.ts, SES in ses-email.ts) depend on this file, never on each other.
 */
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

export const SES_TRANSPORT = 'ses';

/**
 * Why a mail did not go out, in terms the caller can act on:
 * rejected: this message or its addresses were refused (fix the mail, do not retry as is);
 * throttled: the service is busy (retry shortly); paused: sending is stopped for the account or
 * its configuration (an operator must act); unavailable: the service failed (retry later);
 * not-configured: this deployment has no mail transport.
 */
export type EmailFailureKind = EmailFailureReason;

/** A send that did not happen. `code` is the transport's error name, safe to log (no addresses). */
export class EmailSendFailure extends Error {
  constructor(
    readonly kind: EmailFailureKind,
    readonly code: string,
  ) {
    super(`Email not sent (${kind}: ${code})`);
    this.name = 'EmailSendFailure';
  }
}
