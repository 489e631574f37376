/**
 * Sinch Fax API v3, with Sinch's own Node SDK (`@sinch/fax`, a devDependency) as the oracle: the
 * SDK sends the same fax the adapter sends (its HTTP goes to a loopback recorder, which forwards it
 * to the local stand-in), the SDK reads the stand-in's answer, and the SDK's webhook parser reads
 * every callback the stand-in sends, in both of Sinch's content types. Sinch signs no fax callback
 * (the SDK's validateAuthenticationHeader accepts anything): the callback URL's token is checked.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaxCallbackWebhooks, FaxService } from '@sinch/fax';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFax, LOCAL_FAX_PATH } from '../../../infra/local/fax/local-fax.js';
import { eventually } from '../../../test/support/eventually.js';
import { faxCallbackToken, parseFaxCallback, SinchFax, verifyFaxCallbackToken } from './fax.js';

const PROJECT = 'local-fax-project';
const KEY_ID = 'a1b2c3d4-0000-4000-8000-00000000fa11';
const KEY_SECRET = 'kS3cr3t-fax-key';
const KEY = `${KEY_ID}:${KEY_SECRET}`;

interface Seen {
  method: string;
  path: string;
  query: string;
  authorization: string;
  contentType: string;
  form: FormData | null;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
async function bytesOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

let local: ReturnType<typeof createLocalFax>;
let standIn: Server;
let recorder: Server;
let hooks: Server;
let standInUrl: string;
let recorderUrl: string;
let hookUrl: string;
const sdkRequests: Seen[] = [];
const tokenRequests: { authorization: string; body: string }[] = [];
const callbacks: { query: URLSearchParams; contentType: string; body: Buffer }[] = [];
let pdf: Uint8Array;
let pdfPath: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinch-contract-'));
  const secretsFile = join(dir, 'secrets.json');
  writeFileSync(secretsFile, JSON.stringify({ 'sinch-fax': KEY }));
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  doc.addPage([612, 792]);
  pdf = await doc.save();
  pdfPath = join(dir, 'letter.pdf');
  writeFileSync(pdfPath, pdf);

  hooks = createServer((req, res) => {
    void bytesOf(req).then((body) => {
      callbacks.push({ query: new URL(req.url ?? '/', 'http://x').searchParams, contentType: String(req.headers['content-type'] ?? ''), body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  hookUrl = `${await listen(hooks)}/v1/partner-deliveries/sinch-fax/faxes`;

  standIn = createServer((req, res) => void local.handle(req, res));
  standInUrl = `${await listen(standIn)}${LOCAL_FAX_PATH}`;
  local = createLocalFax({ secretsFile, callbackUrl: hookUrl, deliveryDelayMs: 150, projectId: PROJECT });

  // What the SDK sends to auth.sinch.com and fax.api.sinch.com: recorded, the token answered here,
  // the fax forwarded to the stand-in with the Basic credentials Sinch also takes.
  recorder = createServer((req, res) => {
    void bytesOf(req).then(async (raw) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/oauth2/token') {
        tokenRequests.push({ authorization: String(req.headers.authorization ?? ''), body: raw.toString('utf8') });
        const jwt = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')}.x`;
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: jwt, expires_in: 3599, scope: '', token_type: 'bearer' }));
      }
      const contentType = String(req.headers['content-type'] ?? '');
      const form = /multipart\/form-data/.test(contentType)
        ? await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData()
        : null;
      sdkRequests.push({
        method: String(req.method),
        path: url.pathname,
        query: url.search,
        authorization: String(req.headers.authorization ?? ''),
        contentType,
        form,
      });
      const answer = await fetch(`${standInUrl}${url.pathname}${url.search}`, {
        method: req.method,
        headers: { 'content-type': contentType, authorization: `Basic ${Buffer.from(KEY).toString('base64')}` },
        body: req.method === 'GET' ? undefined : new Uint8Array(raw),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  recorderUrl = await listen(recorder);
});

afterAll(async () => {
  local.stop();
  for (const s of [standIn, recorder, hooks]) await new Promise((r) => s.close(r));
});

describe('sending a fax against the @sinch/fax SDK', () => {
  it('sends the method, path, query and form parts the SDK sends, with the key the SDK authenticates with; the SDK reads the stand-in’s answer', async () => {
    const ours: Seen[] = [];
    const fax = new SinchFax({
      baseUrl: standInUrl,
      projectId: PROJECT,
      key: KEY,
      exchange: async (url, init) => {
        const u = new URL(url);
        ours.push({
          method: init.method,
          path: u.pathname.slice(LOCAL_FAX_PATH.length),
          query: u.search,
          authorization: init.headers.authorization ?? '',
          contentType: 'multipart/form-data',
          form: init.body,
        });
        const answer = await fetch(url, init);
        return { status: answer.status, body: await answer.text() };
      },
    });
    const sent = await fax.send({ to: '+15035550142', from: '+15415550190', pdf, fileName: 'letter.pdf', callbackUrl: hookUrl });

    const sinch = new FaxService({ projectId: PROJECT, keyId: KEY_ID, keySecret: KEY_SECRET, faxHostname: recorderUrl, authHostname: recorderUrl });
    const [theirs] = await sinch.faxes.send({
      sendFaxRequestBody: {
        to: '+15035550142',
        from: '+15415550190',
        filePaths: [pdfPath],
        callbackUrl: new URL(`${hookUrl}?token=${faxCallbackToken(KEY)}`).href,
        callbackUrlContentType: 'application/json',
      },
    });

    const sdk = sdkRequests.at(-1)!;
    const mine = ours[0]!;
    expect(mine.method).toBe(sdk.method);
    expect(mine.path).toBe(sdk.path);
    expect(mine.query).toBe(sdk.query);
    // Sinch takes the access key as HTTP Basic or trades it for an OAuth2 token (the SDK's way): the same key either way.
    expect(tokenRequests.at(-1)!.authorization).toBe(mine.authorization);
    expect(sdk.authorization).toMatch(/^Bearer /);
    for (const name of ['to', 'from', 'callbackUrl', 'callbackUrlContentType']) expect([name, mine.form!.getAll(name)]).toEqual([name, sdk.form!.getAll(name)]);
    const [ourFile, sdkFile] = [mine.form!.get('file'), sdk.form!.get('file')] as File[];
    expect(ourFile.name).toBe(sdkFile.name);
    expect(ourFile.type).toBe(sdkFile.type);
    expect(Buffer.from(await ourFile.arrayBuffer()).equals(Buffer.from(await sdkFile.arrayBuffer()))).toBe(true);
    // The parts we leave out are the SDK's client-side defaults, which the fax service's own settings give otherwise.
    const ourNames = new Set(mine.form!.keys());
    expect([...new Set(sdk.form!.keys())].filter((n) => !ourNames.has(n)).sort()).toEqual([
      'headerPageNumbers',
      'headerTimeZone',
      'imageConversionMethod',
      'retryDelaySeconds',
    ]);

    // The SDK read the stand-in's answer as a Fax.
    expect(theirs!.id).toMatch(/^[A-Za-z0-9]+$/);
    expect(theirs!.status).toBe('QUEUED');
    expect(theirs!.numberOfPages).toBe(2);
    expect(sent.pages).toBe(2);
    expect(sent.status).toBe(theirs!.status);
  });

  it('gives Sinch a callback URL with the practice token and no other change', async () => {
    const seen: string[] = [];
    const fax = new SinchFax({
      baseUrl: standInUrl,
      projectId: PROJECT,
      key: KEY,
      exchange: async (_url, init) => (
        seen.push(String(init.body.get('callbackUrl'))),
        { status: 200, body: JSON.stringify({ id: '01ABC', status: 'QUEUED' }) }
      ),
    });
    await fax.send({ to: '+15035550142', from: '+15415550190', pdf, fileName: 'letter.pdf', callbackUrl: hookUrl });
    const url = new URL(seen[0]!);
    expect(`${url.origin}${url.pathname}`).toBe(hookUrl);
    expect(url.searchParams.get('token')).toBe(faxCallbackToken(KEY));
  });
});

describe('the stand-in’s callbacks against the SDK’s webhook parser', () => {
  const parse = async (c: { contentType: string; body: Buffer }) => {
    // The SDK takes a JSON body, or a form's fields as an object (what a form parser gives it).
    if (c.contentType.startsWith('application/json')) return FaxCallbackWebhooks.parseEvent(c.body.toString('utf8'));
    const form = await new Response(new Uint8Array(c.body), { headers: { 'content-type': c.contentType } }).formData();
    return FaxCallbackWebhooks.parseEvent(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string')));
  };

  it('FAX_COMPLETED in JSON, as we ask for it: parsed by the SDK and by us alike, on a URL with our token', async () => {
    callbacks.length = 0;
    const fax = new SinchFax({ baseUrl: standInUrl, projectId: PROJECT, key: KEY });
    const sent = await fax.send({ to: '+15035550142', from: '+15415550190', pdf, fileName: 'letter.pdf', callbackUrl: hookUrl });
    const [done] = await eventually(
      'the fax callback',
      async () => callbacks.filter((c) => c.body.includes(sent.faxId)),
      (l) => l.length > 0,
    );
    expect(done!.contentType).toMatch(/^application\/json/);
    expect(verifyFaxCallbackToken(KEY, done!.query.get('token') ?? undefined)).toBe(true);
    const event = await parse(done!);
    const ours = (await parseFaxCallback(done!.contentType, done!.body)) as { event: string; fax: { id: string; status: string; numberOfPages: number } };
    expect(event.event).toBe('FAX_COMPLETED');
    expect(event.eventTime).toBeInstanceOf(Date);
    expect(Number.isNaN((event.eventTime as Date).getTime())).toBe(false);
    expect(event.fax).toMatchObject({ id: sent.faxId, status: 'COMPLETED', direction: 'OUTBOUND', numberOfPages: 2 });
    expect(ours).toMatchObject({ event: event.event, fax: { id: event.fax!.id, status: event.fax!.status, numberOfPages: event.fax!.numberOfPages } });
  });

  for (const contentType of ['multipart/form-data', 'application/json'] as const) {
    it(`INCOMING_FAX as ${contentType}: the SDK and we read the same event, and the PDF arrives whole`, async () => {
      callbacks.length = 0;
      const res = await fetch(`${standInUrl}/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: '+15035550142', pdfBase64: Buffer.from(pdf).toString('base64'), contentType }),
      });
      expect(res.status).toBe(200);
      const c = callbacks[0]!;
      expect(c.contentType.startsWith(contentType)).toBe(true);
      expect(verifyFaxCallbackToken(KEY, c.query.get('token') ?? undefined)).toBe(true);
      const event = await parse(c);
      const ours = (await parseFaxCallback(c.contentType, c.body)) as { event: string; fax: { id: string; from: string; direction: string }; file: string };
      expect(event.event).toBe('INCOMING_FAX');
      expect(event.fax).toMatchObject({ direction: 'INBOUND', from: '+15035550142' });
      expect(ours.event).toBe(event.event);
      expect(ours.fax).toMatchObject({ id: event.fax!.id, from: event.fax!.from, direction: event.fax!.direction });
      expect(Buffer.from(ours.file, 'base64').equals(Buffer.from(pdf))).toBe(true);
    });
  }

  it('a callback without the token, with another practice’s token, or with a tampered one is not ours', () => {
    const token = faxCallbackToken(KEY);
    expect(verifyFaxCallbackToken(KEY, token)).toBe(true);
    expect(verifyFaxCallbackToken(KEY, undefined)).toBe(false);
    expect(verifyFaxCallbackToken(KEY, faxCallbackToken('other:key'))).toBe(false);
    expect(verifyFaxCallbackToken(KEY, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toBe(false);
    expect(verifyFaxCallbackToken(null, token)).toBe(false);
    // What Sinch's SDK itself checks on a fax callback: nothing, so the token is the only guard.
    expect(new FaxCallbackWebhooks().validateAuthenticationHeader({}, '{}', '/', 'POST')).toBe(true);
  });
});
