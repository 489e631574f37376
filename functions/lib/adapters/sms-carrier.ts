/**
 * Texts go out through AWS End User Messaging SMS (`pinpoint-sms-voice-v2`): SendTextMessage, and
 * SendMediaMessage for attachments (media named by s3:// URL in the files bucket). The two calls
 * are plain JSON over HTTPS (awsJson1_0), signed with the SDK's SigV4 signer the S3 calls use, so
 * no service client lands in the Lambda bundle. Locally SMS_VOICE_ENDPOINT points the same code at
 * the sandbox carrier of `npm start`, which speaks the same protocol.
 */
import { NodeSha256 } from './node-sha256.js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';

export interface OutgoingText {
  /** The practice number it goes out from (E.164). */
  from: string;
  /** The patient phone (E.164). */
  to: string;
  text: string;
  /** Attachments already in the files bucket. */
  media?: { bucket: string; key: string }[];
  /** Logged with the message's delivery events (the service's Context); ids only, never PHI. */
  context?: Record<string, string>;
}

export interface SentText {
  /** The carrier's id of each message part sent (one per media file, or one for a plain text). */
  messageIds: string[];
}

/** Why a text did not go out: decides the status of the answer and what the user is told. */
export type SmsFailureKind = 'opted-out' | 'rejected' | 'throttled' | 'unavailable' | 'not-configured';

export class SmsSendFailure extends Error {
  constructor(
    readonly kind: SmsFailureKind,
    /** The service's error type and reason (no message text, no numbers). */
    readonly code: string,
  ) {
    super(`SMS send failed: ${kind} (${code})`);
    this.name = 'SmsSendFailure';
  }
}

export interface SmsCarrier {
  send(text: OutgoingText): Promise<SentText>;
}

export const SMS_VOICE_TARGET_PREFIX = 'PinpointSMSVoiceV2';
export const SMS_VOICE_SIGNING_NAME = 'sms-voice';

export interface HttpExchange {
  /** `errorType` is the X-Amzn-ErrorType header: AWS JSON services may name an error there only. */
  (url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{ status: number; body: string; errorType?: string }>;
}

const fetchExchange: HttpExchange = async (url, init) => {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.text(), errorType: response.headers.get('x-amzn-errortype') ?? undefined };
};

export interface SmsVoiceOptions {
  region: string;
  /** The local sandbox carrier (npm start); AWS otherwise. */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Configuration set whose event destination is the inbound SNS topic (delivery receipts). */
  configurationSet?: string;
  exchange?: HttpExchange;
}

/** Maps the service's documented errors (ValidationException, ConflictException with Reason, …) to a kind. */
export function failureOf(status: number, body: string, headerType?: string): SmsSendFailure {
  let parsed: { __type?: string; code?: string; Reason?: string } = {};
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    /* not JSON: the status decides */
  }
  // The header first, then the body's __type (or code), as the SDK's awsJson deserializer reads them.
  const type = (headerType || parsed.__type || parsed.code || '').split(':')[0]!.split('#').pop()!;
  const reason = parsed.Reason ?? '';
  const code = reason ? `${type}:${reason}` : type || `HTTP${status}`;
  if (type === 'ConflictException' && reason === 'DESTINATION_PHONE_NUMBER_OPTED_OUT') return new SmsSendFailure('opted-out', code);
  if (type === 'ThrottlingException' || type === 'ServiceQuotaExceededException' || status === 429) return new SmsSendFailure('throttled', code);
  if (type === 'InternalServerException' || status >= 500) return new SmsSendFailure('unavailable', code);
  return new SmsSendFailure('rejected', code);
}

export class SmsVoiceV2Carrier implements SmsCarrier {
  private readonly signer: SignatureV4;
  private readonly url: URL;

  constructor(private readonly options: SmsVoiceOptions) {
    this.signer = new SignatureV4({
      service: SMS_VOICE_SIGNING_NAME,
      region: options.region,
      sha256: NodeSha256,
      credentials: options.credentials ?? defaultProvider(),
    });
    // The operation path is "/" below the endpoint's own path, as the SDK joins them.
    const url = new URL(options.endpoint ?? `https://sms-voice.${options.region}.amazonaws.com/`);
    url.pathname = url.pathname.replace(/\/?$/, '/');
    this.url = url;
  }

  /** One signed awsJson1_0 call; the parsed answer, or an SmsSendFailure. */
  async call<T>(operation: string, input: Record<string, unknown>): Promise<T> {
    const body = JSON.stringify(input);
    const path = this.url.pathname;
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      port: this.url.port ? Number(this.url.port) : undefined,
      path,
      headers: {
        host: this.url.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${SMS_VOICE_TARGET_PREFIX}.${operation}`,
      },
      body,
    });
    let answer: { status: number; body: string; errorType?: string };
    try {
      answer = await (this.options.exchange ?? fetchExchange)(this.url.href, { method: 'POST', headers: signed.headers as Record<string, string>, body });
    } catch (error) {
      throw new SmsSendFailure('unavailable', (error as Error)?.name ?? 'NetworkError');
    }
    if (answer.status >= 300) throw failureOf(answer.status, answer.body, answer.errorType);
    return (answer.body ? JSON.parse(answer.body) : {}) as T;
  }

  async send(text: OutgoingText): Promise<SentText> {
    const common = {
      DestinationPhoneNumber: text.to,
      OriginationIdentity: text.from,
      ...(this.options.configurationSet ? { ConfigurationSetName: this.options.configurationSet } : {}),
      ...(text.context && Object.keys(text.context).length ? { Context: text.context } : {}),
    };
    const media = text.media ?? [];
    if (media.length === 0) {
      const out = await this.call<{ MessageId?: string }>('SendTextMessage', { ...common, MessageBody: text.text, MessageType: 'TRANSACTIONAL' });
      return { messageIds: [out.MessageId ?? ''] };
    }
    // The service takes one media file per message: the text rides with the first.
    const messageIds: string[] = [];
    for (const [i, m] of media.entries()) {
      const out = await this.call<{ MessageId?: string }>('SendMediaMessage', {
        ...common,
        ...(i === 0 && text.text ? { MessageBody: text.text } : {}),
        MediaUrls: [`s3://${m.bucket}/${m.key}`],
      });
      messageIds.push(out.MessageId ?? '');
    }
    return { messageIds };
  }
}

/** A deployment without SMS in its practice config refuses to send rather than pretend it did. */
export class DisabledSmsCarrier implements SmsCarrier {
  async send(): Promise<SentText> {
    throw new SmsSendFailure('not-configured', 'SmsNotConfigured');
  }
}

/**
 * SMS_VOICE_ENDPOINT is set only by the local runtime (its sandbox carrier); the stack sets
 * SMS_TRANSPORT=sms-voice and SMS_CONFIGURATION_SET when the practice config has an `sms` block.
 */
export function smsCarrierFromEnv(env: NodeJS.ProcessEnv = process.env): SmsCarrier {
  const region = env.AWS_REGION || 'us-east-1';
  if (env.SMS_VOICE_ENDPOINT) {
    return new SmsVoiceV2Carrier({
      region,
      endpoint: env.SMS_VOICE_ENDPOINT,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      configurationSet: env.SMS_CONFIGURATION_SET || undefined,
    });
  }
  if (env.SMS_TRANSPORT === 'sms-voice') return new SmsVoiceV2Carrier({ region, configurationSet: env.SMS_CONFIGURATION_SET || undefined });
  return new DisabledSmsCarrier();
}

let override: SmsCarrier | undefined;
let fromEnv: SmsCarrier | undefined;

export function setSmsCarrier(carrier: SmsCarrier | undefined): void {
  override = carrier;
}

/** The carrier of this process (built once per Lambda container). */
export function smsCarrier(): SmsCarrier {
  if (override) return override;
  fromEnv ??= smsCarrierFromEnv();
  return fromEnv;
}

/* ---------- what arrives on the inbound SNS topic ---------- */

/** A two-way SMS message as the service publishes it to SNS (an inbound text, keywords included). */
export interface InboundText {
  kind: 'inbound';
  /** The patient phone. */
  originationNumber: string;
  /** The practice number it was sent to. */
  destinationNumber: string;
  messageBody: string;
  inboundMessageId: string;
  messageKeyword?: string;
  previousPublishedMessageId?: string;
}

/** A delivery event of the configuration set (TEXT_DELIVERED, TEXT_BLOCKED, MEDIA_DELIVERED, …). */
export interface DeliveryReceipt {
  kind: 'receipt';
  eventType: string;
  messageId: string;
  messageStatus: string;
  messageStatusDescription?: string;
  isFinal?: boolean;
  eventTimestamp?: number;
  context?: Record<string, string>;
}

/** Event types that mean the text reached the handset (or the recipient's carrier accepted it). */
const DELIVERED_EVENTS = new Set(['TEXT_DELIVERED', 'TEXT_SUCCESSFUL', 'MEDIA_DELIVERED', 'MEDIA_SUCCESSFUL']);
/** Event types that are not an outcome yet. */
const PENDING_EVENTS = new Set(['TEXT_QUEUED', 'TEXT_PENDING', 'MEDIA_QUEUED', 'MEDIA_PENDING']);

export function receiptOutcome(r: DeliveryReceipt): 'DELIVERED' | 'FAILED' | null {
  if (DELIVERED_EVENTS.has(r.eventType)) return 'DELIVERED';
  if (PENDING_EVENTS.has(r.eventType)) return null;
  if (r.eventType.startsWith('TEXT_') || r.eventType.startsWith('MEDIA_')) return 'FAILED';
  return null;
}

/** One SNS record's Message: an inbound text, a receipt, or null for anything else. */
export function parseCarrierMessage(message: string): InboundText | DeliveryReceipt | null {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(message) as Record<string, unknown>;
  } catch {
    return null;
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  if (str(m.inboundMessageId) && str(m.originationNumber) && str(m.destinationNumber)) {
    return {
      kind: 'inbound',
      originationNumber: str(m.originationNumber)!,
      destinationNumber: str(m.destinationNumber)!,
      messageBody: str(m.messageBody) ?? '',
      inboundMessageId: str(m.inboundMessageId)!,
      ...(str(m.messageKeyword) ? { messageKeyword: str(m.messageKeyword) } : {}),
      ...(str(m.previousPublishedMessageId) ? { previousPublishedMessageId: str(m.previousPublishedMessageId) } : {}),
    };
  }
  if (str(m.eventType) && str(m.messageId)) {
    const context = m.context && typeof m.context === 'object' ? (m.context as Record<string, string>) : undefined;
    return {
      kind: 'receipt',
      eventType: str(m.eventType)!,
      messageId: str(m.messageId)!,
      messageStatus: str(m.messageStatus) ?? '',
      ...(str(m.messageStatusDescription) ? { messageStatusDescription: str(m.messageStatusDescription) } : {}),
      ...(typeof m.isFinal === 'boolean' ? { isFinal: m.isFinal } : {}),
      ...(typeof m.eventTimestamp === 'number' ? { eventTimestamp: m.eventTimestamp } : {}),
      ...(context ? { context } : {}),
    };
  }
  return null;
}
