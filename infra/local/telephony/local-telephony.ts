/**
 * The telephony vendor's local stand-in (labelled "local" in the product): it answers the Twilio
 * Programmable Voice calls the telephony adapter makes (functions/lib/adapters/telephony.ts),
 * keeps every call placed, and plays each one through: initiated, ringing, answered, completed,
 * each reported to the call's StatusCallback signed as Twilio signs (X-Twilio-Signature with the
 * account's auth token). POST {prefix}/inbound {from, to?, voicemail?, hangUp?, recordingDelayMs?}
 * simulates an incoming call: the incoming-call webhook, then
 * - (voicemail, the default) a recording callback for a recorded message it serves at its own
 *   RecordingUrl (voicemail.wav beside this file) and the call's `completed`; with
 *   recordingDelayMs, `completed` first and the recording callback that much later, as Twilio
 *   often orders them;
 * - (hangUp 'greeting') the caller hanging up during the greeting: only `completed`, as Twilio
 *   sends when <Record> was never reached;
 * - (voicemail false) a no-answer status.
 * Nothing leaves the machine.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TELEPHONY_PARTNER_ID } from '../../../shared/calls/call-schema.js';
import { twilioSignature } from '../../../functions/lib/adapters/telephony.js';

export const LOCAL_TELEPHONY_PATH = '/local/telephony';
/** The account and voice line of a practice file without `telephony` (the demo's file names the same ones). */
export const LOCAL_TELEPHONY_ACCOUNT_SID = 'AC0000000000000000000000000000c0de';
export const LOCAL_TELEPHONY_NUMBERS = ['+15415550180'];
const VOICEMAIL_WAV = join(dirname(fileURLToPath(import.meta.url)), 'voicemail.wav');

interface LocalCall {
  sid: string;
  direction: 'outbound-api' | 'inbound';
  from: string;
  to: string;
  twiml: string;
  status: string;
  statusCallback: string | null;
  dateCreated: string;
  duration: number | null;
}

export interface LocalTelephonyOptions {
  secretsFile: string;
  /** The origin this stand-in is served on (its RecordingUrl). */
  origin: string;
  /** The number's voice webhook: where incoming calls are announced. */
  voiceUrl: string;
  /** How long a placed call takes to play through; the tests shorten it. */
  callDelayMs?: number;
  /** The Twilio account this stand-in is: `telephony.accountSid` of practices/<slug>.json. */
  accountSid?: string;
  /** The numbers it holds: `telephony.numbers` of practices/<slug>.json (an inbound call rings the first). */
  numbers?: readonly string[];
}

interface InboundRequest {
  from?: string;
  to?: string;
  voicemail?: boolean;
  hangUp?: 'greeting';
  recordingDelayMs?: number;
}

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;
const send = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function createLocalTelephony(options: LocalTelephonyOptions) {
  const accountSid = options.accountSid ?? LOCAL_TELEPHONY_ACCOUNT_SID;
  const numbers = options.numbers?.length ? options.numbers : LOCAL_TELEPHONY_NUMBERS;
  const calls: LocalCall[] = [];
  const recordings = new Map<string, string>();
  const timers = new Set<NodeJS.Timeout>();
  const authToken = () => (JSON.parse(readFileSync(options.secretsFile, 'utf8')) as Record<string, string>)[TELEPHONY_PARTNER_ID] ?? '';
  const delay = options.callDelayMs ?? 2000;
  const accountPath = `/2010-04-01/Accounts/${accountSid}`;

  /** POSTs Twilio's form to a callback URL, signed over that URL and the form, as Twilio does. */
  async function callback(url: string, fields: Record<string, string>): Promise<{ status: number; body: string }> {
    const form = new URLSearchParams({ AccountSid: accountSid, ApiVersion: '2010-04-01', ...fields });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(authToken(), url, form) },
      body: form.toString(),
    });
    return { status: res.status, body: await res.text() };
  }

  const later = (ms: number, fn: () => Promise<unknown> | void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      Promise.resolve(fn()).catch(() => undefined);
    }, ms);
    timers.add(t);
  };

  const publicCall = (c: LocalCall) => ({
    sid: c.sid,
    account_sid: accountSid,
    from: c.from,
    to: c.to,
    status: c.status,
    direction: c.direction,
    duration: c.duration === null ? null : String(c.duration),
    date_created: c.dateCreated,
    twiml: c.twiml,
    uri: `${accountPath}/Calls/${c.sid}.json`,
  });

  const fields = (c: LocalCall, status: string, extra: Record<string, string> = {}) => ({
    CallSid: c.sid,
    From: c.from,
    To: c.to,
    Direction: c.direction,
    CallStatus: status,
    ...extra,
  });

  function playThrough(call: LocalCall): void {
    const steps: [number, string, Record<string, string>][] = [
      [delay / 8, 'initiated', {}],
      [delay / 4, 'ringing', {}],
      [delay / 2, 'in-progress', {}],
      [delay, 'completed', { CallDuration: '42' }],
    ];
    for (const [at, status, extra] of steps) {
      later(at, async () => {
        call.status = status;
        if (status === 'completed') call.duration = 42;
        if (call.statusCallback) await callback(call.statusCallback, fields(call, status, extra));
      });
    }
  }

  async function recordingCallback(recordTo: string, call: LocalCall) {
    const recordingSid = sid('RE');
    recordings.set(recordingSid, call.sid);
    return callback(recordTo, {
      CallSid: call.sid,
      RecordingSid: recordingSid,
      RecordingUrl: `${options.origin}${LOCAL_TELEPHONY_PATH}${accountPath}/Recordings/${recordingSid}`,
      RecordingStatus: 'completed',
      RecordingDuration: '8',
      RecordingChannels: '1',
      RecordingSource: 'RecordVerb',
    });
  }

  async function inbound(body: InboundRequest) {
    const call: LocalCall = {
      sid: sid('CA'),
      direction: 'inbound',
      from: body.from && /^\+\d{10,15}$/.test(body.from) ? body.from : '+15035550177',
      to: body.to ?? numbers[0]!,
      twiml: '',
      status: 'ringing',
      statusCallback: options.voiceUrl,
      dateCreated: new Date().toUTCString(),
      duration: null,
    };
    calls.unshift(call);
    const answer = await callback(options.voiceUrl, fields(call, 'ringing', { Caller: call.from, Called: call.to }));
    call.twiml = answer.body;
    const recordTo = /<Record[^>]*recordingStatusCallback="([^"]+)"/.exec(answer.body)?.[1]?.replace(/&amp;/g, '&');
    const results: { event: string; status: number }[] = [{ event: 'incoming', status: answer.status }];
    if (body.hangUp === 'greeting') {
      call.status = 'completed';
      call.duration = 4;
      results.push({ event: 'completed', status: (await callback(options.voiceUrl, fields(call, 'completed', { CallDuration: '4' }))).status });
    } else if (body.voicemail !== false && recordTo && body.recordingDelayMs !== undefined) {
      call.status = 'completed';
      call.duration = 15;
      results.push({ event: 'completed', status: (await callback(options.voiceUrl, fields(call, 'completed', { CallDuration: '15' }))).status });
      later(Math.max(0, body.recordingDelayMs), () => recordingCallback(recordTo, call));
    } else if (body.voicemail !== false && recordTo) {
      const recording = await recordingCallback(recordTo, call);
      results.push({ event: 'recording', status: recording.status });
      call.status = 'completed';
      call.duration = 15;
      results.push({ event: 'completed', status: (await callback(options.voiceUrl, fields(call, 'completed', { CallDuration: '15' }))).status });
    } else {
      call.status = 'no-answer';
      results.push({ event: 'no-answer', status: (await callback(options.voiceUrl, fields(call, 'no-answer', { CallDuration: '0' }))).status });
    }
    return { call: publicCall(call), callbacks: results };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice(LOCAL_TELEPHONY_PATH.length) || '/';
    const authorized = () => req.headers.authorization === `Basic ${Buffer.from(`${accountSid}:${authToken()}`).toString('base64')}`;
    const unauthorized = () => send(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
    if (path === `${accountPath}/Calls.json` && req.method === 'POST') {
      if (!authorized()) return unauthorized();
      const form = new URLSearchParams(await readBody(req));
      const to = form.get('To') ?? '';
      const from = form.get('From') ?? '';
      if (!/^\+\d{10,15}$/.test(to)) return send(res, 400, { code: 21217, message: `Phone number is not a valid phone number: ${to}`, status: 400 });
      if (!form.get('Twiml') && !form.get('Url')) return send(res, 400, { code: 21205, message: 'Url or Twiml is required', status: 400 });
      const call: LocalCall = {
        sid: sid('CA'),
        direction: 'outbound-api',
        from,
        to,
        twiml: form.get('Twiml') ?? '',
        status: 'queued',
        statusCallback: form.get('StatusCallback'),
        dateCreated: new Date().toUTCString(),
        duration: null,
      };
      calls.unshift(call);
      playThrough(call);
      return send(res, 201, publicCall(call));
    }
    if (path === `${accountPath}/Calls.json` && req.method === 'GET') {
      if (!authorized()) return unauthorized();
      return send(res, 200, { calls: calls.map(publicCall) });
    }
    const recording = new RegExp(`^${accountPath}/Recordings/(RE[0-9a-f]{32})(\\.wav|\\.mp3)?$`).exec(path);
    if (recording && req.method === 'GET') {
      if (!authorized()) return unauthorized();
      if (!recordings.has(recording[1]!)) return send(res, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      const audio = readFileSync(VOICEMAIL_WAV);
      return void res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': String(audio.length) }).end(audio);
    }
    if (path === '/inbound' && req.method === 'POST') {
      const raw = await readBody(req);
      let body: InboundRequest = {};
      try {
        body = raw ? (JSON.parse(raw) as typeof body) : {};
      } catch {
        return send(res, 400, { message: 'Malformed JSON in request body' });
      }
      return send(res, 200, await inbound(body));
    }
    send(res, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
  }

  return {
    handle,
    stop() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
