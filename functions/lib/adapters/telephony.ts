/**
 * The telephony vendor: Twilio Programmable Voice (REST API 2010-04-01,
 * https://www.twilio.com/docs/voice/api/call-resource). Click-to-call creates a Call with
 * `POST {base}/2010-04-01/Accounts/{AccountSid}/Calls.json` (form-encoded `To`, `From`, `Twiml`,
 * `StatusCallback`, `StatusCallbackEvent`, HTTP Basic with the account SID and auth token): Twilio
 * rings the user's own phone first, and the TwiML `<Dial>` then connects it to the patient with the
 * practice number as caller id. Status, incoming-call and recording callbacks come back
 * form-encoded, signed with `X-Twilio-Signature`: base64 HMAC-SHA1 (key: the auth token) of the
 * callback URL followed by every POST parameter, sorted by name, as name then value.
 * Deployed, TELEPHONY_API_URL is https://api.twilio.com; locally it is the stand-in
 * (infra/local/telephony), which speaks the same API and signs the same way. The auth token is the
 * practice's partner secret `twilio-voice`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';

export interface PlaceCallRequest {
  /** The user's phone, which rings first. */
  dialFrom: string;
  /** The number the user is connected to once they answer. */
  to: string;
  /** The practice number both phones see. */
  from: string;
  statusCallbackUrl: string;
}

export interface PlacedCall {
  callSid: string;
  status: string;
}

export interface CallPlacer {
  place(request: PlaceCallRequest): Promise<PlacedCall>;
}

export class TelephonyVendorError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'TelephonyVendorError';
  }
}

export type TelephonyExchange = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; body: Uint8Array; contentType: string }>;

const fetchExchange: TelephonyExchange = async (url, init) => {
  const response = await fetch(url, init);
  return { status: response.status, body: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
};

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What Twilio runs once the user's phone answers: connect them to the patient, showing the practice number. */
export function bridgeTwiml(to: string, from: string): string {
  return `<Response><Dial callerId="${xml(from)}"><Number>${xml(to)}</Number></Dial></Response>`;
}

/**
 * The answer to an incoming call: the practice's greeting, then a voicemail of up to two minutes
 * reported to the recording callback, `completed` or, when the caller said nothing, `absent`. A
 * caller who hangs up during the greeting never reaches <Record>: only the call's `completed`
 * status callback comes, and the calls delivery route decides after a wait (call-deliveries.ts).
 */
export function voicemailTwiml(practiceName: string, recordingCallbackUrl: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Say>You have reached ${xml(practiceName)}. Please leave a message after the tone.</Say><Record maxLength="120" playBeep="true" recordingStatusCallback="${xml(recordingCallbackUrl)}" recordingStatusCallbackEvent="completed absent"/><Say>We did not receive a message. Goodbye.</Say></Response>`;
}

export class TwilioVoice implements CallPlacer {
  constructor(
    private readonly options: {
      baseUrl: string;
      accountSid: string;
      authToken: string;
      exchange?: TelephonyExchange;
    },
  ) {}

  private get auth(): string {
    return `Basic ${Buffer.from(`${this.options.accountSid}:${this.options.authToken}`).toString('base64')}`;
  }

  async place(request: PlaceCallRequest): Promise<PlacedCall> {
    const form = new URLSearchParams();
    form.set('To', request.dialFrom);
    form.set('From', request.from);
    form.set('Twiml', bridgeTwiml(request.to, request.from));
    form.set('StatusCallback', request.statusCallbackUrl);
    form.set('StatusCallbackMethod', 'POST');
    for (const event of ['initiated', 'ringing', 'answered', 'completed']) form.append('StatusCallbackEvent', event);
    const url = `${this.options.baseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(this.options.accountSid)}/Calls.json`;
    const answer = await (this.options.exchange ?? fetchExchange)(url, {
      method: 'POST',
      headers: { authorization: this.auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    });
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(Buffer.from(answer.body).toString('utf8')) as Record<string, unknown>;
    } catch {
      /* not JSON: the status names it */
    }
    if (answer.status >= 300)
      throw new TelephonyVendorError(
        `The phone service refused the call: ${typeof parsed.message === 'string' ? parsed.message : `HTTP ${answer.status}`}`,
        answer.status,
      );
    if (typeof parsed.sid !== 'string') throw new TelephonyVendorError('The phone service answered without a call id', answer.status);
    return { callSid: parsed.sid, status: typeof parsed.status === 'string' ? parsed.status : 'queued' };
  }

  /**
   * A recording's audio: RecordingUrl with `.wav` (Twilio serves a recording's media there; with
   * "HTTP Basic authentication for media" on, it needs the account's credentials, sent always).
   * Only the vendor's own origin is fetched, so a forged URL cannot make the Lambda fetch elsewhere.
   */
  async recording(recordingUrl: string): Promise<{ audio: Uint8Array; contentType: string }> {
    const allowed = new URL(this.options.baseUrl).origin;
    const url = new URL(`${recordingUrl.replace(/\.(wav|mp3)$/, '')}.wav`);
    if (url.origin !== allowed) throw new TelephonyVendorError('A recording is fetched from the phone service only', 400);
    const answer = await (this.options.exchange ?? fetchExchange)(url.href, { method: 'GET', headers: { authorization: this.auth } });
    if (answer.status >= 300) throw new TelephonyVendorError(`The recording could not be fetched: HTTP ${answer.status}`, answer.status);
    return { audio: answer.body, contentType: answer.contentType.split(';')[0] || 'audio/wav' };
  }
}

/**
 * X-Twilio-Signature over the callback URL and the form parameters, as Twilio's own library
 * computes it (`getExpectedTwilioSignature`): names sorted, each followed by its value; a name
 * sent more than once contributes each distinct value once, values sorted.
 */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const byName = new Map<string, Set<string>>();
  for (const [k, v] of params.entries()) byName.set(k, (byName.get(k) ?? new Set()).add(v));
  const names = [...byName.keys()].sort();
  const data =
    url +
    names
      .map((k) =>
        [...byName.get(k)!]
          .sort()
          .map((v) => k + v)
          .join(''),
      )
      .join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** The URL with and without its scheme's default port: Twilio signs whichever form its request used. */
function withAndWithoutPort(url: string): string[] {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url);
  if (!m) return [url];
  const [prefix, scheme, authority] = m as unknown as [string, string, string];
  const at = authority.lastIndexOf('@');
  const hostPort = authority.slice(at + 1);
  const colon = hostPort.indexOf(':', hostPort.lastIndexOf(']') + 1);
  const host = colon === -1 ? hostPort : hostPort.slice(0, colon);
  const userInfo = authority.slice(0, at + 1);
  const rest = url.slice(prefix.length);
  const without = scheme + userInfo + host + rest;
  const withPort = colon === -1 ? scheme + userInfo + host + (scheme.toLowerCase() === 'https://' ? ':443' : ':80') + rest : url;
  return [without, withPort];
}

export function verifyTwilioSignature(authToken: string | null, url: string, params: URLSearchParams, signature: string | undefined): boolean {
  if (!authToken || !signature) return false;
  const given = Buffer.from(signature);
  return withAndWithoutPort(url).some((candidate) => {
    const expected = Buffer.from(twilioSignature(authToken, candidate, params));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

export interface TelephonySettings {
  baseUrl: string;
  accountSid: string;
  /** The practice's voice numbers (E.164); the first is the default caller id. */
  numbers: string[];
  /** Where Twilio reports call status, incoming calls and recordings: the API's delivery route for calls. */
  callbackUrl: string;
  /** The local stand-in answers instead of Twilio (labelled in the product). */
  local: boolean;
}

/** TELEPHONY_API_URL, TELEPHONY_ACCOUNT_SID, TELEPHONY_CALLBACK_URL and TELEPHONY_NUMBERS (comma separated), or null when calling is not set up. */
export function telephonySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): TelephonySettings | null {
  if (!env.TELEPHONY_API_URL || !env.TELEPHONY_ACCOUNT_SID || !env.TELEPHONY_CALLBACK_URL) return null;
  return {
    baseUrl: env.TELEPHONY_API_URL,
    accountSid: env.TELEPHONY_ACCOUNT_SID,
    callbackUrl: env.TELEPHONY_CALLBACK_URL,
    numbers: (env.TELEPHONY_NUMBERS ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
    local: env.TELEPHONY_LOCAL === '1',
  };
}
