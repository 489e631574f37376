import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { securityHeaders } from '../../lib/web-security-headers.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  // WebAssembly.instantiateStreaming needs this exact type (the HEIC viewer's decoder).
  '.wasm': 'application/wasm',
};

/** CloudFront compresses these types, and only files from 1,000 bytes to 10,000,000 bytes. */
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg\+xml)/;
const MIN_COMPRESS_BYTES = 1_000;
const MAX_COMPRESS_BYTES = 10_000_000;

export type Encoding = 'br' | 'gzip' | 'identity';

/** Brotli when the browser takes it, else gzip, as CloudFront chooses (a q=0 refuses a coding). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)))
      .map(([coding]) => coding.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

interface Encoded {
  key: string;
  bytes: Buffer;
}

export interface StaticWebOptions {
  /** The Content-Security-Policy this origin sends: the deployed one plus the local file store's origin. */
  contentSecurityPolicy: string;
}

/** The headers every answer of the web origin carries, as CloudFront's response headers policy adds them. */
export function webOriginHeaders(options: StaticWebOptions): Record<string, string> {
  return securityHeaders({ csp: options.contentSecurityPolicy, https: false });
}

/**
 * The built web app as CloudFront serves it: the SPA fallback (a path that is not a file gets
 * index.html), gzip or brotli by Accept-Encoding, the security headers, hashed assets cached for
 * good and index.html revalidated, so a rebuild shows at once. Compressed bytes are kept per file
 * version, so each file is compressed once per encoding.
 */
export function staticWeb(root: string, options: StaticWebOptions): (req: IncomingMessage, res: ServerResponse, path: string) => void {
  const security = webOriginHeaders(options);
  const encoded = new Map<string, Encoded>();

  const encode = (file: string, version: string, encoding: Exclude<Encoding, 'identity'>): Buffer => {
    const cacheKey = `${file}\0${encoding}`;
    const cached = encoded.get(cacheKey);
    if (cached?.key === version) return cached.bytes;
    const raw = readFileSync(file);
    const bytes =
      encoding === 'br' ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }) : gzipSync(raw);
    encoded.set(cacheKey, { key: version, bytes });
    return bytes;
  };

  return (req, res, path) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...security, allow: 'GET, HEAD' }).end();
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      res.writeHead(400, security).end();
      return;
    }
    const candidate = normalize(join(root, decoded));
    const inside = candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
    const isFile = inside && existsSync(candidate) && statSync(candidate).isFile();
    const file = isFile ? candidate : join(root, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404, { ...security, 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const stat = statSync(file);
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const immutable = isFile && decoded.startsWith('/assets/');
    const compressible = COMPRESSIBLE.test(type) && stat.size >= MIN_COMPRESS_BYTES && stat.size <= MAX_COMPRESS_BYTES;
    const encoding = compressible ? chooseEncoding(req.headers['accept-encoding']) : 'identity';
    const body = encoding === 'identity' ? readFileSync(file) : encode(file, `${stat.mtimeMs}:${stat.size}`, encoding);

    res.writeHead(200, {
      ...security,
      'content-type': type,
      'content-length': body.length,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(compressible ? { vary: 'Accept-Encoding' } : {}),
      ...(encoding !== 'identity' ? { 'content-encoding': encoding } : {}),
    });
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };
}
