/**
 * Twilio Programmable Voice, with Twilio's own Node library (`twilio`, a devDependency) as the
 * oracle: the library builds the same Call creation the adapter builds, its HTTP layer replaced so
 * nothing leaves the machine; the local stand-in's answer is parsed by the library; the stand-in's
 * status callbacks pass the library's `validateRequest`; and our signature check gives the
 * library's verdict on the same URL and parameters, tampered and absent ones included.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalTelephony, LOCAL_TELEPHONY_ACCOUNT_SID, LOCAL_TELEPHONY_PATH } from '../../../infra/local/telephony/local-telephony.js';
import { eventually } from '../../../test/support/eventually.js';
import { twilioSignature, TwilioVoice, verifyTwilioSignature } from './telephony.js';

const TOKEN = 'b7e2c1d0a9f8e7d6c5b4a3f2e1d0c9b8';
const SID = LOCAL_TELEPHONY_ACCOUNT_SID;

interface Seen {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | undefined>;
  body: string;
}

let standIn: Server;
let hooks: Server;
let standInOrigin: string;
let hookUrl: string;
const callbacks: { url: string; signature: string; params: URLSearchParams }[] = [];
let local: ReturnType<typeof createLocalTelephony>;

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'twilio-contract-'));
  const secretsFile = join(dir, 'secrets.json');
  writeFileSync(secretsFile, JSON.stringify({ 'twilio-voice': TOKEN }));
  hooks = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      callbacks.push({
        url: `${hookUrl.split('/calls')[0]}${req.url}`,
        signature: String(req.headers['x-twilio-signature'] ?? ''),
        params: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<Response/>');
    });
  });
  hookUrl = `${await listen(hooks)}/calls`;
  let origin = '';
  standIn = createServer((req, res) => void local.handle(req, res));
  origin = await listen(standIn);
  standInOrigin = origin;
  local = createLocalTelephony({ secretsFile, origin, voiceUrl: hookUrl, callDelayMs: 200 });
});

afterAll(async () => {
  local.stop();
  await new Promise((r) => standIn.close(r));
  await new Promise((r) => hooks.close(r));
});

/** A request client whose transport goes to the stand-in instead of api.twilio.com, and records what the library sent. */
function libraryTransport(seen: Seen[]) {
  const client = new twilio.RequestClient();
  client.axios.defaults.adapter = async (config) => {
    const url = new URL(config.url!);
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(config.headers ?? {})) headers[k.toLowerCase()] = v === undefined ? undefined : String(v);
    const body = typeof config.data === 'string' ? config.data : '';
    seen.push({ method: String(config.method).toUpperCase(), path: url.pathname, query: url.search, headers, body });
    const answer = await fetch(`${standInOrigin}${LOCAL_TELEPHONY_PATH}${url.pathname}${url.search}`, {
      method: String(config.method).toUpperCase(),
      headers: headers as Record<string, string>,
      body: body || undefined,
    });
    return { data: await answer.json(), status: answer.status, statusText: '', headers: Object.fromEntries(answer.headers), config };
  };
  return client;
}

/** What the adapter sent, by the same recording of its exchange. */
function adapterTransport(seen: Seen[]) {
  return async (target: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    const url = new URL(target);
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(init.headers)) headers[k.toLowerCase()] = v;
    seen.push({ method: init.method, path: url.pathname.slice(LOCAL_TELEPHONY_PATH.length), query: url.search, headers, body: init.body ?? '' });
    const answer = await fetch(target, { method: init.method, headers: init.headers, body: init.body });
    return { status: answer.status, body: new Uint8Array(await answer.arrayBuffer()), contentType: answer.headers.get('content-type') ?? '' };
  };
}

const sortedForm = (body: string) => [...new URLSearchParams(body).entries()].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));

describe('Call creation against the twilio library', () => {
  it('sends the method, URL, query, form and Basic auth the library sends for the same call, and the library reads the stand-in’s answer', async () => {
    const request = { dialFrom: '+15415553131', to: '+15035550101', from: '+15415550180', statusCallbackUrl: hookUrl };
    const ours: Seen[] = [];
    const voice = new TwilioVoice({ baseUrl: `${standInOrigin}${LOCAL_TELEPHONY_PATH}`, accountSid: SID, authToken: TOKEN, exchange: adapterTransport(ours) });
    const placed = await voice.place(request);

    const theirs: Seen[] = [];
    const client = twilio(SID, TOKEN, { httpClient: libraryTransport(theirs) });
    const call = await client.calls.create({
      to: request.dialFrom,
      from: request.from,
      twiml: `<Response><Dial callerId="${request.from}"><Number>${request.to}</Number></Dial></Response>`,
      statusCallback: request.statusCallbackUrl,
      statusCallbackMethod: 'POST',
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    });

    expect(ours).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(ours[0]!.method).toBe(theirs[0]!.method);
    expect(ours[0]!.path).toBe(theirs[0]!.path);
    expect(ours[0]!.query).toBe(theirs[0]!.query);
    expect(ours[0]!.headers.authorization).toBe(theirs[0]!.headers.authorization);
    expect(ours[0]!.headers['content-type']).toBe(theirs[0]!.headers['content-type']);
    expect(sortedForm(ours[0]!.body)).toEqual(sortedForm(theirs[0]!.body));

    // The library accepted the stand-in's answer as a Call resource.
    expect(call.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(call.accountSid).toBe(SID);
    expect(call.status).toBe('queued');
    expect(call.direction).toBe('outbound-api');
    expect(call.dateCreated).toBeInstanceOf(Date);
    expect(Number.isNaN(call.dateCreated.getTime())).toBe(false);
    expect(placed.callSid).toMatch(/^CA[0-9a-f]{32}$/);
  });

  it("reads the stand-in's refusal the way the library does", async () => {
    const client = twilio(SID, TOKEN, { httpClient: libraryTransport([]) });
    const refused = (await client.calls.create({ to: 'not-a-number', from: '+15415550180', twiml: '<Response/>' }).then(
      () => null,
      (e: unknown) => e,
    )) as { status: number; code: number; message: string };
    const voice = new TwilioVoice({ baseUrl: `${standInOrigin}${LOCAL_TELEPHONY_PATH}`, accountSid: SID, authToken: TOKEN });
    const ours = (await voice.place({ dialFrom: 'not-a-number', to: '+15035550101', from: '+15415550180', statusCallbackUrl: hookUrl }).then(
      () => null,
      (e: unknown) => e,
    )) as { status: number; message: string };
    expect(refused).toMatchObject({ status: 400, code: 21217 });
    expect(ours.status).toBe(refused.status);
    expect(ours.message).toContain(refused.message);
  });
});

describe('the stand-in’s callbacks against twilio.validateRequest', () => {
  it('signs every status callback so the library accepts it on the URL it was sent to', async () => {
    callbacks.length = 0;
    const voice = new TwilioVoice({ baseUrl: `${standInOrigin}${LOCAL_TELEPHONY_PATH}`, accountSid: SID, authToken: TOKEN });
    const placed = await voice.place({ dialFrom: '+15415553131', to: '+15035550101', from: '+15415550180', statusCallbackUrl: hookUrl });
    const seen = await eventually(
      'the completed status callback',
      async () => callbacks.filter((c) => c.params.get('CallSid') === placed.callSid),
      (list) => list.some((c) => c.params.get('CallStatus') === 'completed'),
    );
    expect(seen.map((c) => c.params.get('CallStatus'))).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
    for (const c of seen) {
      expect(twilio.validateRequest(TOKEN, c.signature, c.url, Object.fromEntries(c.params))).toBe(true);
      expect(verifyTwilioSignature(TOKEN, c.url, c.params, c.signature)).toBe(true);
      expect(c.params.get('AccountSid')).toBe(SID);
      expect(c.params.get('ApiVersion')).toBe('2010-04-01');
    }
  });
});

describe('X-Twilio-Signature: our verdict is the library’s', () => {
  const base = 'https://api.practice.example/v1/partner-deliveries/twilio-voice/calls';
  const form = new URLSearchParams({
    AccountSid: SID,
    CallSid: 'CA' + 'b'.repeat(32),
    CallStatus: 'completed',
    Direction: 'outbound-api',
    From: '+15415550180',
    To: '+15035550101',
  });
  /** The library takes parameters as an object; a repeated name is an array. */
  const asObject = (p: URLSearchParams) => {
    const o: Record<string, string | string[]> = {};
    for (const k of new Set(p.keys())) {
      const all = p.getAll(k);
      o[k] = all.length > 1 ? all : all[0]!;
    }
    return o;
  };
  const tampered = new URLSearchParams(form);
  tampered.set('CallStatus', 'in-progress');
  const repeated = new URLSearchParams(form);
  repeated.append('StatusCallbackEvent', 'ringing');
  repeated.append('StatusCallbackEvent', 'initiated');
  repeated.append('StatusCallbackEvent', 'ringing');

  const cases: { name: string; signedUrl: string; signedParams: URLSearchParams; url: string; params: URLSearchParams; token?: string; header?: string }[] = [
    { name: 'as sent', signedUrl: base, signedParams: form, url: base, params: form },
    { name: 'a changed parameter', signedUrl: base, signedParams: form, url: base, params: tampered },
    { name: 'another URL', signedUrl: base, signedParams: form, url: base.replace('calls', 'faxes'), params: form },
    { name: 'another token', signedUrl: base, signedParams: form, url: base, params: form, token: 'x'.repeat(32) },
    { name: 'no header', signedUrl: base, signedParams: form, url: base, params: form, header: '' },
    {
      name: 'Twilio signed with :443, we know the URL without',
      signedUrl: base.replace('.example/', '.example:443/'),
      signedParams: form,
      url: base,
      params: form,
    },
    {
      name: 'Twilio signed without :443, we know the URL with',
      signedUrl: base,
      signedParams: form,
      url: base.replace('.example/', '.example:443/'),
      params: form,
    },
    {
      name: 'a repeated parameter in another order',
      signedUrl: base,
      signedParams: repeated,
      url: base,
      params: new URLSearchParams([...repeated.entries()].reverse()),
    },
    { name: 'a query string on the URL', signedUrl: `${base}?practice=demo`, signedParams: form, url: `${base}?practice=demo`, params: form },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const header = c.header ?? twilio.getExpectedTwilioSignature(TOKEN, c.signedUrl, asObject(c.signedParams));
      const token = c.token ?? TOKEN;
      const library = twilio.validateRequest(token, header, c.url, asObject(c.params));
      expect(verifyTwilioSignature(token, c.url, c.params, header || undefined)).toBe(library);
    });
  }

  it('signs as the library signs, so the stand-in and integration tests speak real Twilio', () => {
    expect(twilioSignature(TOKEN, base, repeated)).toBe(twilio.getExpectedTwilioSignature(TOKEN, base, asObject(repeated)));
  });
});
