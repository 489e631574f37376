import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { LOCAL_CARRIER_LABEL, LocalCarrierInbound, type LocalCarrierOutbound } from '../../../shared/messaging/messaging-schema.js';
import { formatPhone } from '../../../shared/patients/phone.js';
import { s3ObjectsFromEnv } from '../../../functions/lib/adapters/s3-objects.js';
import { SMS_VOICE_SIGNING_NAME, SMS_VOICE_TARGET_PREFIX } from '../../../functions/lib/adapters/sms-carrier.js';
import { jsonStateFile } from '../json-state-file.js';
import { runtimeError } from '../runtime-log.js';

/**
 * The sandbox carrier of `npm start`: it speaks the pinpoint-sms-voice-v2 JSON protocol the SMS
 * adapter signs (SendTextMessage, SendMediaMessage) at /local/sms-voice, validates what the service
 * validates (E.164 numbers, an origination number the account holds, an opted-out destination, the
 * body and media limits), records every text it takes, and later publishes a delivery receipt to
 * the worker exactly as the SMS topic would. /local/carrier is its page: the outbound texts and a
 * form to reply as a patient phone; POST /local/carrier/sms delivers such a reply over HTTP.
 * Nothing here exists in a deployed stack.
 */

/** The service's per-type MMS limits: images up to 2 MB, other media up to 600 KB. */
const MEDIA_LIMITS: Record<string, number> = { 'image/jpeg': 2_000_000, 'image/png': 2_000_000, 'image/gif': 2_000_000 };
const OTHER_MEDIA_LIMIT = 600_000;
const BODY_MAX = 1600;
const E164 = /^\+[1-9]\d{7,14}$/;
const OPT_OUT = new Set(['ARRET', 'CANCEL', 'END', 'OPT-OUT', 'OPTOUT', 'QUIT', 'REMOVE', 'STOP', 'TD', 'UNSUBSCRIBE']);
const OPT_IN = new Set(['START', 'UNSTOP']);

export interface LocalCarrierOptions {
  dataDir: string;
  region: string;
  accountId: string;
  /** The numbers this account holds: practices/<slug>.json sms.originationNumbers. */
  originationNumbers: readonly string[];
  topicArn: string;
  /** Invokes the worker subscribed to the SMS topic with an SNS event; throws when it fails. */
  publish: (event: unknown) => Promise<void>;
  /** Delay before a delivery receipt (the real service answers within seconds). */
  receiptDelayMs?: number;
}

interface CarrierState {
  outbound: (LocalCarrierOutbound & { context?: Record<string, string> })[];
  optOuts: Record<string, { at: string; keyword: string }>;
}

class CarrierError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new CarrierError(413, 'ValidationException', 'Request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function createLocalCarrier(opts: LocalCarrierOptions) {
  const file = join(opts.dataDir, 'sms-carrier.json');
  const state: CarrierState = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CarrierState) : { outbound: [], optOuts: {} };
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const stateFile = jsonStateFile(
    file,
    () => state,
    (error) => runtimeError('Local carrier: saving its texts failed', error),
  );
  const save = stateFile.save;

  const snsEvent = (message: object) => ({
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: `${opts.topicArn}:${randomUUID()}`,
        Sns: {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: opts.topicArn,
          Subject: null,
          Message: JSON.stringify(message),
          Timestamp: new Date().toISOString(),
          SignatureVersion: '1',
          Signature: 'local',
          SigningCertUrl: 'http://localhost/local-carrier.pem',
          UnsubscribeUrl: 'http://localhost/local-carrier/unsubscribe',
          MessageAttributes: {},
        },
      },
    ],
  });

  /** Lambda's async invoke: the event and two retries. */
  async function deliver(message: object): Promise<void> {
    let last: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await opts.publish(snsEvent(message));
        return;
      } catch (error) {
        last = error;
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
    throw last;
  }

  function scheduleReceipt(record: CarrierState['outbound'][number], media: boolean): void {
    if (!record.configurationSet) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (stopped) return;
      record.status = 'DELIVERED';
      save();
      const event = {
        eventType: media ? 'MEDIA_DELIVERED' : 'TEXT_DELIVERED',
        eventVersion: '1.0',
        eventTimestamp: Date.now(),
        isFinal: true,
        originationPhoneNumber: record.from,
        destinationPhoneNumber: record.to,
        isInternationalSend: false,
        messageId: record.messageId,
        messageRequestTimestamp: Date.parse(record.sentAt),
        messageEncoding: 'GSM',
        messageType: 'TRANSACTIONAL',
        messageStatus: 'DELIVERED',
        messageStatusDescription: 'Message has been accepted by phone',
        ...(record.context ? { context: record.context } : {}),
      };
      deliver(event).catch((error: unknown) => runtimeError('Local carrier: a delivery receipt failed after retries', error));
    }, opts.receiptDelayMs ?? 300);
    timers.add(timer);
  }

  async function mediaOf(url: string): Promise<{ key: string; contentType: string; size: number }> {
    const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
    if (!match)
      throw new CarrierError(400, 'ValidationException', 'MediaUrls must be s3:// URLs', { Reason: 'INVALID_PARAMETER', Fields: [{ Name: 'MediaUrls' }] });
    let head;
    try {
      head = await s3ObjectsFromEnv().headObject({ bucket: match[1]!, key: match[2]! });
    } catch {
      throw new CarrierError(400, 'ValidationException', 'The media file could not be read', { Reason: 'MEDIA_NOT_FOUND' });
    }
    const limit = MEDIA_LIMITS[head.contentType] ?? OTHER_MEDIA_LIMIT;
    if (head.size > limit) throw new CarrierError(400, 'ValidationException', `Media file is larger than ${limit} bytes`, { Reason: 'MEDIA_SIZE_EXCEEDED' });
    return { key: match[2]!, contentType: head.contentType, size: head.size };
  }

  async function send(operation: string, input: Record<string, unknown>): Promise<{ MessageId: string }> {
    const to = String(input.DestinationPhoneNumber ?? '');
    const from = String(input.OriginationIdentity ?? '');
    const body = typeof input.MessageBody === 'string' ? input.MessageBody : '';
    if (!E164.test(to))
      throw new CarrierError(400, 'ValidationException', 'DestinationPhoneNumber is not a valid E.164 number', {
        Reason: 'INVALID_PARAMETER',
        Fields: [{ Name: 'DestinationPhoneNumber' }],
      });
    if (!E164.test(from) && !from.startsWith('arn:'))
      throw new CarrierError(400, 'ValidationException', 'OriginationIdentity is not valid', {
        Reason: 'INVALID_PARAMETER',
        Fields: [{ Name: 'OriginationIdentity' }],
      });
    if (!opts.originationNumbers.includes(from))
      throw new CarrierError(404, 'ResourceNotFoundException', 'The origination identity does not exist in this account', {
        ResourceType: 'phone-number',
        ResourceId: from,
      });
    if (body.length > BODY_MAX)
      throw new CarrierError(400, 'ValidationException', `MessageBody is longer than ${BODY_MAX} characters`, {
        Reason: 'INVALID_PARAMETER',
        Fields: [{ Name: 'MessageBody' }],
      });
    if (state.optOuts[to])
      throw new CarrierError(400, 'ConflictException', 'The destination phone number is opted out', {
        Reason: 'DESTINATION_PHONE_NUMBER_OPTED_OUT',
        ResourceType: 'opt-out-list',
        ResourceId: 'Default',
      });
    let media: LocalCarrierOutbound['media'] = [];
    if (operation === 'SendMediaMessage') {
      const urls = Array.isArray(input.MediaUrls) ? (input.MediaUrls as unknown[]).map(String) : [];
      if (urls.length !== 1)
        throw new CarrierError(400, 'ValidationException', 'MediaUrls must hold one URL', { Reason: 'INVALID_PARAMETER', Fields: [{ Name: 'MediaUrls' }] });
      media = [await mediaOf(urls[0]!)];
    } else if (!body) {
      throw new CarrierError(400, 'ValidationException', 'MessageBody is required', { Reason: 'INVALID_PARAMETER', Fields: [{ Name: 'MessageBody' }] });
    }
    const record = {
      messageId: randomUUID(),
      from,
      to,
      text: body,
      media,
      sentAt: new Date().toISOString(),
      status: 'SENT' as const,
      configurationSet: typeof input.ConfigurationSetName === 'string' ? input.ConfigurationSetName : null,
      ...(input.Context && typeof input.Context === 'object' ? { context: input.Context as Record<string, string> } : {}),
    };
    state.outbound.push(record);
    save();
    scheduleReceipt(record, operation === 'SendMediaMessage');
    return { MessageId: record.messageId };
  }

  /** /local/sms-voice: the service's JSON protocol (awsJson1_0, X-Amz-Target, a SigV4 Authorization for sms-voice). */
  async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: object, type?: string) =>
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', ...(type ? { 'x-amzn-errortype': type } : {}) }).end(JSON.stringify(body));
    try {
      if (req.method !== 'POST') throw new CarrierError(405, 'ValidationException', 'POST only');
      const auth = String(req.headers.authorization ?? '');
      if (!auth.startsWith('AWS4-HMAC-SHA256 ') || !auth.includes(`/${opts.region}/${SMS_VOICE_SIGNING_NAME}/aws4_request`)) {
        throw new CarrierError(403, 'AccessDeniedException', 'Missing or malformed SigV4 authorization for sms-voice');
      }
      const target = String(req.headers['x-amz-target'] ?? '');
      const [prefix, operation] = target.split('.');
      if (prefix !== SMS_VOICE_TARGET_PREFIX || !operation) throw new CarrierError(400, 'UnknownOperationException', `Unknown target ${target}`);
      const input = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
      if (operation === 'SendTextMessage' || operation === 'SendMediaMessage') return void reply(200, await send(operation, input));
      if (operation === 'DescribeOptedOutNumbers') {
        return void reply(200, {
          OptOutListName: 'Default',
          OptedOutNumbers: Object.entries(state.optOuts).map(([n, o]) => ({
            OptedOutNumber: n,
            OptedOutTimestamp: Date.parse(o.at) / 1000,
            EndUserOptedOut: true,
          })),
        });
      }
      throw new CarrierError(400, 'UnknownOperationException', `The sandbox carrier does not implement ${operation}`);
    } catch (error) {
      if (error instanceof CarrierError) return void reply(error.status, { __type: error.type, Message: error.message, ...error.extra }, error.type);
      if (error instanceof SyntaxError) return void reply(400, { __type: 'SerializationException', Message: 'Body is not JSON' }, 'SerializationException');
      throw error;
    }
  }

  /** A patient phone's reply: opt-out keywords as the service handles them, then the SNS two-way message. */
  async function inbound(input: { from: string; to: string; text: string }): Promise<string> {
    if (!opts.originationNumbers.includes(input.to))
      throw new CarrierError(404, 'ResourceNotFoundException', `${formatPhone(input.to)} is not a number this account holds`);
    const keyword = input.text.trim().toUpperCase();
    if (OPT_OUT.has(keyword)) state.optOuts[input.from] = { at: new Date().toISOString(), keyword };
    if (OPT_IN.has(keyword)) delete state.optOuts[input.from];
    save();
    const inboundMessageId = randomUUID();
    await deliver({
      originationNumber: input.from,
      destinationNumber: input.to,
      messageKeyword: OPT_OUT.has(keyword) || OPT_IN.has(keyword) ? keyword : 'KEYWORD_' + opts.accountId,
      messageBody: input.text,
      inboundMessageId,
      previousPublishedMessageId: state.outbound.filter((m) => m.to === input.from && m.from === input.to).at(-1)?.messageId ?? '',
    });
    return inboundMessageId;
  }

  function page(notice?: string): string {
    const rows = [...state.outbound]
      .reverse()
      .slice(0, 200)
      .map(
        (m) =>
          `<tr><td>${escapeHtml(new Date(m.sentAt).toLocaleString('en-US'))}</td><td>${escapeHtml(formatPhone(m.from))}</td><td>${escapeHtml(formatPhone(m.to))}</td><td>${escapeHtml(m.text)}${m.media
            .map((f) => `<br>[attachment ${escapeHtml(f.key.split('/').pop() ?? f.key)}, ${escapeHtml(f.contentType)}, ${f.size} bytes]`)
            .join('')}</td><td>${m.status}</td></tr>`,
      )
      .join('');
    const options = opts.originationNumbers.map((n) => `<option value="${escapeHtml(n)}">${escapeHtml(formatPhone(n))}</option>`).join('');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${LOCAL_CARRIER_LABEL}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:1rem;color:#1a1a1a;background:#fff}table{border-collapse:collapse;width:100%}.scroll{overflow-x:auto}th,td{border:1px solid #767676;padding:.25rem .5rem;text-align:left;vertical-align:top}label{display:block;margin-top:.5rem}input,select,textarea,button{font:inherit}button{margin-top:.5rem;padding:.25rem 1rem}:focus-visible{outline:3px solid #005377;outline-offset:2px}.note{background:#fff4ce;padding:.5rem;border:1px solid #8a6d00}</style></head>
<body><main><h1>${LOCAL_CARRIER_LABEL}</h1>
<p class="note">Local only (<code>npm start</code>): no text leaves this machine. Texts the practice sends are listed here; a reply typed below reaches the practice as a patient's text would.</p>
${notice ? `<p role="status">${escapeHtml(notice)}</p>` : ''}
<h2>Reply as a patient phone</h2>
<form method="post" action="/local/carrier/sms">
<label for="from">Patient phone (from)</label><input id="from" name="from" required inputmode="tel" autocomplete="off" placeholder="+15415550123">
<label for="to">Practice number (to)</label><select id="to" name="to" required>${options}</select>
<label for="text">Message</label><textarea id="text" name="text" required rows="3" cols="40" maxlength="${BODY_MAX}"></textarea>
<button type="submit">Send reply</button></form>
<h2>Outbound texts</h2><p><a href="/local/carrier">Refresh</a></p>
<div class="scroll" role="region" aria-label="Outbound texts" tabindex="0"><table><caption>Texts sent through the ${LOCAL_CARRIER_LABEL.toLowerCase()}, newest first</caption>
<thead><tr><th scope="col">Sent</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Text</th><th scope="col">Status</th></tr></thead>
<tbody>${rows || '<tr><td colspan="5">No texts yet</td></tr>'}</tbody></table></div></main></body></html>`;
  }

  /** /local/carrier (page) and /local/carrier/sms (GET: outbound texts; POST: a patient phone's reply). */
  async function handleUi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://local').pathname.replace(/\/$/, '');
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    if (path === '/local/carrier' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page());
      return;
    }
    if (path === '/local/carrier/sms' && req.method === 'GET') {
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      json(200, { label: LOCAL_CARRIER_LABEL, messages: state.outbound.map(({ context, ...m }) => m) });
      return;
    }
    if (path === '/local/carrier/sms' && req.method === 'POST') {
      const form = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      try {
        const raw = await readBody(req);
        const input = form ? Object.fromEntries(new URLSearchParams(raw)) : (JSON.parse(raw || '{}') as unknown);
        const parsed = LocalCarrierInbound.safeParse(input);
        if (!parsed.success) throw new CarrierError(400, 'ValidationException', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        const inboundMessageId = await inbound(parsed.data);
        if (form) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page('Reply delivered to the practice.'));
        else json(202, { inboundMessageId });
      } catch (error) {
        const status = error instanceof CarrierError ? error.status : error instanceof SyntaxError ? 400 : 502;
        const message =
          error instanceof CarrierError
            ? error.message
            : error instanceof SyntaxError
              ? 'Body is not JSON'
              : 'The practice did not take the text (see the runtime log)';
        if (!(error instanceof CarrierError || error instanceof SyntaxError)) runtimeError('Local carrier: an inbound text failed after retries', error);
        if (form) res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page(message));
        else json(status, { message });
      }
      return;
    }
    json(404, { message: 'Not Found' });
  }

  return {
    handleApi,
    handleUi,
    async stop(): Promise<void> {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await stateFile.flush();
    },
  };
}
