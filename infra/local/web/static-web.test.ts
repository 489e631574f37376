import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../lib/web-security-headers.js';
import { chooseEncoding, staticWeb } from './static-web.js';

const CSP = contentSecurityPolicy({ connect: ['http://127.0.0.1:4569'], media: ['http://127.0.0.1:4569'] });
const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(', ')}];\n`;
const INDEX = `<!doctype html><html><head><script type="module" src="./assets/index-abc123.js"></script></head><body><div id="root"></div>${' '.repeat(1200)}</body></html>`;

let root: string;
let server: Server;
let base: string;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tidewell-static-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(root, 'assets', 'tiny-abc123.js'), 'export {};\n');
  writeFileSync(join(root, 'assets', 'logo-abc123.png'), Buffer.alloc(4096, 7));
  const serve = staticWeb(root, { contentSecurityPolicy: CSP });
  server = createServer((req, res) => serve(req, res, new URL(req.url ?? '/', 'http://local').pathname));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(root, { recursive: true, force: true });
});

describe('local web origin: compression as CloudFront does it', () => {
  it('sends brotli to a browser that accepts it, gzip to one that takes only gzip, and the bytes are the file', async () => {
    const br = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);

    const gzip = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);
  });

  it('sends the file as it is when no coding is accepted, and says the answer varies by Accept-Encoding', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get('/assets/index-abc123.js', accept ? { 'accept-encoding': accept } : {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.body.toString()).toBe(SCRIPT);
    }
  });

  it('leaves files under 1,000 bytes and images uncompressed', async () => {
    const tiny = await get('/assets/tiny-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    const png = await get('/assets/logo-abc123.png', { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    expect(png.body.length).toBe(4096);
  });

  it('answers HEAD with the headers of the encoded file and no body', async () => {
    const head = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    const full = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
  });
});

describe('local web origin: caching and security headers', () => {
  it('caches hashed assets for good and revalidates index.html, also as the SPA fallback', async () => {
    expect((await get('/assets/index-abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await get('/');
    expect(index.headers['cache-control']).toBe('no-cache');
    const fallback = await get('/patients/pat-0001', { 'accept-encoding': 'gzip' });
    expect(fallback.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(fallback.body).toString()).toBe(INDEX);
  });

  it("sends the CloudFront policy's headers on pages, assets and refusals", async () => {
    for (const answer of [await get('/'), await get('/assets/index-abc123.js'), await get('/', {}, 'POST')]) {
      expect(answer.headers['content-security-policy']).toBe(CSP);
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      // Browsers ignore HSTS over plain http; the local origin must not pin localhost to https.
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    }
    expect(CSP).toContain("frame-ancestors 'self'");
    expect(CSP).toContain("connect-src 'self' http://127.0.0.1:4569");
    // WebAssembly may compile (the HEIC decoder); strings are never evaluated as code.
    expect(CSP).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(CSP).not.toContain("'unsafe-eval'");
  });
});

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(chooseEncoding('deflate')).toBe('identity');
    expect(chooseEncoding(undefined)).toBe('identity');
  });
});
