/**
 * Contract tests for the hand-written AWS calls: what the official SDK v3 client would put on the
 * wire for an operation, captured by a request handler that never opens a socket, beside what the
 * adapter puts on the wire for the same input; and a SigV4 check written from AWS's documented
 * algorithm (not the signer the adapters use), so a request whose signature covers something other
 * than what is sent fails here rather than with a 403 in AWS.
 */
import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { HttpResponse, type HttpRequest } from '@smithy/protocol-http';
import { expect } from 'vitest';

/** AWS's example credentials (the SigV4 test suite's), with a session token as Lambda has one. */
export const TEST_CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token-EXAMPLE',
};
export const SIGNING_TIME = new Date('2026-11-24T08:30:00Z');

/** One request as it would leave the process. Header names are lower case. */
export interface WireRequest {
  method: string;
  protocol: string;
  host: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Buffer;
}

export interface CannedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

const lowerHeaders = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));

function bodyBytes(body: unknown): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new Error(`Cannot read a ${typeof body} request body in a contract test`);
}

/**
 * The SDK client's `requestHandler`: keeps each request after every middleware (serializer,
 * endpoint, checksums, signing) ran, and answers `canned` so the client's own deserializer reads it.
 */
export function recordingHandler(canned: CannedAnswer | (() => CannedAnswer) = {}) {
  const requests: WireRequest[] = [];
  const requestHandler = {
    async handle(request: HttpRequest) {
      const query = Object.fromEntries(Object.entries(request.query ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v ?? '')]));
      requests.push({
        method: request.method,
        protocol: request.protocol,
        host: request.port ? `${request.hostname}:${request.port}` : request.hostname,
        path: request.path,
        query,
        headers: lowerHeaders(request.headers),
        body: bodyBytes(request.body),
      });
      const answer = typeof canned === 'function' ? canned() : canned;
      return {
        response: new HttpResponse({
          statusCode: answer.status ?? 200,
          headers: answer.headers ?? {},
          body: Readable.from([Buffer.from(answer.body ?? '')]),
        }),
      };
    },
  };
  return { requests, requestHandler };
}

/** A request as fetch (or node's http) would send it. */
export function wireOf(url: string | URL, init: { method?: string; headers?: unknown; body?: unknown }): WireRequest {
  const u = new URL(String(url));
  const headers = lowerHeaders((init.headers ?? {}) as Record<string, unknown>);
  return {
    method: init.method ?? 'GET',
    protocol: u.protocol,
    host: headers.host ?? u.host,
    path: u.pathname,
    query: Object.fromEntries(u.searchParams),
    headers,
    body: bodyBytes(init.body),
  };
}

/** A fetch that keeps what it was asked to send and answers `canned`. */
export function recordingFetch(canned: CannedAnswer | (() => CannedAnswer) = {}) {
  const requests: WireRequest[] = [];
  const fetchImpl = async (url: string | URL | Request, init: RequestInit = {}) => {
    requests.push(wireOf(String(url), init as { method?: string; headers?: unknown; body?: unknown }));
    const answer = typeof canned === 'function' ? canned() : canned;
    return new Response(answer.body ?? '', { status: answer.status ?? 200, headers: answer.headers ?? {} });
  };
  return { requests, fetch: fetchImpl as typeof fetch };
}

/** The same, in the `exchange` shape the JSON adapters take. */
export function recordingExchange(canned: CannedAnswer | (() => CannedAnswer) = {}) {
  const requests: WireRequest[] = [];
  const exchange = async (url: string, init: { method: string; headers: Record<string, string>; body: string }) => {
    requests.push(wireOf(url, init));
    const answer = typeof canned === 'function' ? canned() : canned;
    return { status: answer.status ?? 200, body: answer.body ?? '', errorType: answer.headers?.['x-amzn-errortype'] };
  };
  return { requests, exchange };
}

const scopeOf = (authorization: string | undefined) => /Credential=[^/]+\/(\d{8}\/[^/]+\/[^/]+\/aws4_request)/.exec(authorization ?? '')?.[1];

/**
 * The adapter sends what the SDK sends: method, scheme and host, path, query, body (parsed JSON for
 * JSON bodies), the named headers, the signing scope (date, region, service name) and the session
 * token; and its signature is valid for exactly what it sends.
 */
export function expectSameOperation(adapter: WireRequest, sdk: WireRequest, options: { headers: string[]; service: string; json?: boolean }) {
  expect(adapter.method).toBe(sdk.method);
  expect(adapter.protocol).toBe(sdk.protocol);
  expect(adapter.host).toBe(sdk.host);
  expect(adapter.path).toBe(sdk.path);
  expect(adapter.query).toEqual(sdk.query);
  if (options.json) expect(JSON.parse(adapter.body.toString('utf8') || 'null')).toEqual(JSON.parse(sdk.body.toString('utf8') || 'null'));
  else expect(adapter.body.equals(sdk.body)).toBe(true);
  for (const name of options.headers) expect({ [name]: adapter.headers[name] }).toEqual({ [name]: sdk.headers[name] });
  expect(scopeOf(adapter.headers.authorization)).toBe(scopeOf(sdk.headers.authorization));
  expect(adapter.headers['x-amz-security-token']).toBe(sdk.headers['x-amz-security-token']);
  expect(verifySigV4(sdk, options.service)).toBe(true);
  expect(verifySigV4(adapter, options.service)).toBe(true);
}

/* ---------- SigV4, from the documented algorithm ---------- */

const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** The canonical URI: S3 signs the path as sent; every other service URI-encodes each segment once more. */
function canonicalUri(path: string, service: string): string {
  if (service === 's3') return path || '/';
  return (path || '/').split('/').map(rfc3986).join('/');
}

export function canonicalRequest(req: WireRequest, signedHeaders: string[], service: string): string {
  const query = Object.entries(req.query)
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = signedHeaders.map((name) => `${name}:${(name === 'host' ? req.host : (req.headers[name] ?? '')).trim().replace(/\s+/g, ' ')}\n`).join('');
  // The payload is hashed from the body as received; only S3 takes an unsigned one.
  const payload = req.headers['x-amz-content-sha256'] === 'UNSIGNED-PAYLOAD' ? 'UNSIGNED-PAYLOAD' : sha256Hex(req.body);
  return [req.method, canonicalUri(req.path, service), query, headers, signedHeaders.join(';'), payload].join('\n');
}

/** Recomputes the Authorization header's signature for the request as sent, with TEST_CREDENTIALS' secret. */
export function verifySigV4(req: WireRequest, service: string, secret = TEST_CREDENTIALS.secretAccessKey): boolean {
  const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
    req.headers.authorization ?? '',
  );
  if (!auth) return false;
  const [, , day, region, signingName, signed, signature] = auth as unknown as [string, string, string, string, string, string, string];
  if (signingName !== service) return false;
  const amzDate = req.headers['x-amz-date'] ?? '';
  if (!amzDate.startsWith(day)) return false;
  const declared = req.headers['x-amz-content-sha256'];
  if (declared && declared !== 'UNSIGNED-PAYLOAD' && declared !== sha256Hex(req.body)) return false;
  const names = signed.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return false;
  const scope = `${day}/${region}/${signingName}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest(req, names, service))].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), signingName), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}
