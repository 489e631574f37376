import { SendEmailCommand, SESv2Client, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { coveredByIdentity } from './email-identity.js';
import { EmailSendFailure, SES_TRANSPORT, type EmailFailureKind, type EmailSender, type OutgoingEmail, type SentEmail } from './email-sender.js';

export interface SesEmailOptions {
  client: SESv2Client;
  /** The verified SES identity the stack may send from: a domain (clinic.example) or one address. */
  identity: string;
  /** The practice's sending address, inside `identity`; used when the author's own address is not. */
  fromAddress: string;
  configurationSetName?: string;
}

/** SES v2 error names → what the caller can do about them. Unknown errors count as the service failing. */
const FAILURE_KIND: Record<string, EmailFailureKind> = {
  MessageRejected: 'rejected',
  MailFromDomainNotVerifiedException: 'rejected',
  BadRequestException: 'rejected',
  NotFoundException: 'paused',
  AccountSuspendedException: 'paused',
  SendingPausedException: 'paused',
  AccessDeniedException: 'paused',
  TooManyRequestsException: 'throttled',
  LimitExceededException: 'throttled',
  ThrottlingException: 'throttled',
  InternalServiceErrorException: 'unavailable',
};

export function sesFailure(error: unknown): EmailSendFailure {
  const name = (error as { name?: string })?.name ?? 'Error';
  return new EmailSendFailure(FAILURE_KIND[name] ?? 'unavailable', name);
}

/**
 * Sends through SES v2 SendEmail. The note's From (the author's address by default) is used when
 * the verified identity covers it; otherwise the practice address sends and the author's address
 * becomes Reply-To, so the patient's answer still reaches the author.
 */
export class SesEmailSender implements EmailSender {
  constructor(private readonly options: SesEmailOptions) {}

  request(email: OutgoingEmail): SendEmailCommandInput {
    const { identity, fromAddress, configurationSetName } = this.options;
    const ownFrom = coveredByIdentity(email.from, identity);
    const utf8 = (Data: string) => ({ Data, Charset: 'UTF-8' });
    return {
      FromEmailAddress: ownFrom ? email.from.trim() : fromAddress,
      Destination: { ToAddresses: [email.to.trim()] },
      ...(ownFrom ? {} : { ReplyToAddresses: [email.from.trim()] }),
      Content: {
        Simple: {
          Subject: utf8(email.subject),
          Body: { Text: utf8(email.text), ...(email.html ? { Html: utf8(email.html) } : {}) },
        },
      },
      ...(configurationSetName ? { ConfigurationSetName: configurationSetName } : {}),
    };
  }

  async send(_practiceId: string, email: OutgoingEmail): Promise<SentEmail> {
    try {
      const out = await this.options.client.send(new SendEmailCommand(this.request(email)));
      if (!out.MessageId) throw new EmailSendFailure('unavailable', 'MissingMessageId');
      return { messageId: out.MessageId, transport: SES_TRANSPORT };
    } catch (error) {
      if (error instanceof EmailSendFailure) throw error;
      throw sesFailure(error);
    }
  }
}

function required(env: NodeJS.ProcessEnv, key: string): string {
  const value = env[key];
  if (!value) throw new Error(`${key} is not set`);
  return value;
}

export function sesEmailSenderFromEnv(env: NodeJS.ProcessEnv = process.env): SesEmailSender {
  return new SesEmailSender({
    client: new SESv2Client({ region: env.AWS_REGION || 'us-east-1' }),
    identity: required(env, 'EMAIL_IDENTITY'),
    fromAddress: required(env, 'EMAIL_FROM_ADDRESS'),
    configurationSetName: env.EMAIL_CONFIGURATION_SET || undefined,
  });
}
