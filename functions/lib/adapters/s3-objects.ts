/**
 * The four S3 calls the Lambdas make (presigned PUT/GET URLs, GetObject, PutObject), signed with
 * the SDK's own SigV4 signer. The full S3 client brings every S3 operation's schema, its endpoint
 * rules, XML and checksum code (about 150 KB minified) into each bundle that touches the files
 * bucket; these calls need none of it. The presigned URLs are the ones `getSignedUrl` gives
 * (s3-objects.test.ts compares them).
 */
import { NodeSha256 } from './node-sha256.js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface S3Location {
  bucket: string;
  key: string;
}

interface S3Target {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
}

export interface S3ObjectsOptions {
  region: string;
  /** S3_ENDPOINT (the local file store): path-style requests to it instead of AWS. */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** The HTTP exchange (node's client unless a test records it). */
  exchange?: typeof exchange;
}

/** S3 keys keep their slashes; everything else is escaped as S3 (and the SDK) expect. */
const escapeKey = (key: string) =>
  key
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');

export class S3ObjectsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`S3 answered ${status} ${code}`);
    this.name = code || 'S3Error';
  }
}

export class S3Objects {
  private readonly signer: SignatureV4;

  constructor(private readonly options: S3ObjectsOptions) {
    this.signer = new SignatureV4({
      service: 's3',
      region: options.region,
      sha256: NodeSha256,
      credentials: options.credentials ?? defaultProvider(),
      // S3 signs the path as sent, without the second escaping other services use.
      uriEscapePath: false,
      applyChecksum: false,
    });
  }

  private target({ bucket, key }: S3Location): S3Target {
    if (this.options.endpoint) {
      const url = new URL(this.options.endpoint);
      const base = url.pathname.replace(/\/$/, '');
      return { protocol: url.protocol, hostname: url.hostname, port: url.port ? Number(url.port) : undefined, path: `${base}/${bucket}/${escapeKey(key)}` };
    }
    return { protocol: 'https:', hostname: `${bucket}.s3.${this.options.region}.amazonaws.com`, path: `/${escapeKey(key)}` };
  }

  private request(t: S3Target, method: string, headers: Record<string, string>, query: Record<string, string> = {}) {
    const host = t.port ? `${t.hostname}:${t.port}` : t.hostname;
    return { method, protocol: t.protocol, hostname: t.hostname, port: t.port, path: t.path, query, headers: { ...headers, host } };
  }

  private url(signed: { protocol: string; hostname: string; port?: number; path: string; query?: Record<string, string | string[] | null> }): string {
    const query = Object.entries(signed.query ?? {})
      .filter(([, v]) => v !== null && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    return `${signed.protocol}//${signed.hostname}${signed.port ? `:${signed.port}` : ''}${signed.path}${query ? `?${query}` : ''}`;
  }

  private async presign(
    loc: S3Location,
    method: 'GET' | 'PUT',
    headers: Record<string, string>,
    expiresIn: number,
    operation: string,
    signingDate?: Date,
  ): Promise<string> {
    const req = this.request(this.target(loc), method, { ...headers, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' }, { 'x-id': operation });
    const signed = await this.signer.presign(req, { expiresIn, signingDate, unsignableHeaders: new Set(['content-type']) });
    return this.url(signed);
  }

  /** A URL the browser PUTs the file to, valid for expiresIn seconds; the size, when given, is part of the signature. */
  presignPut(loc: S3Location, contentType: string, size: number | undefined, expiresIn: number, signingDate?: Date): Promise<string> {
    return this.presign(
      loc,
      'PUT',
      { 'content-type': contentType, ...(size !== undefined ? { 'content-length': String(size) } : {}) },
      expiresIn,
      'PutObject',
      signingDate,
    );
  }

  presignGet(loc: S3Location, expiresIn: number, signingDate?: Date): Promise<string> {
    // The SDK asks S3 for the object's checksum headers on every GetObject; the URL keeps that.
    return this.presign(loc, 'GET', { 'x-amz-checksum-mode': 'ENABLED' }, expiresIn, 'GetObject', signingDate);
  }

  /** The stored bytes as they are (a gzip object stays gzip: nothing decodes Content-Encoding here). */
  async getObject(loc: S3Location): Promise<Uint8Array> {
    return this.send(loc, 'GET', {}, undefined, 'GetObject');
  }

  async putObject(loc: S3Location, body: Uint8Array, headers: { contentType: string; contentEncoding?: string }): Promise<void> {
    await this.send(
      loc,
      'PUT',
      {
        'content-type': headers.contentType,
        ...(headers.contentEncoding ? { 'content-encoding': headers.contentEncoding } : {}),
        'content-length': String(body.length),
      },
      body,
      'PutObject',
    );
  }

  /** The stored object's size and type (HeadObject), e.g. to check an upload against a limit. */
  async headObject(loc: S3Location): Promise<{ size: number; contentType: string }> {
    const { headers } = await this.exchangeSigned(loc, 'HEAD', {}, undefined);
    return { size: Number(headers['content-length'] ?? 0), contentType: String(headers['content-type'] ?? '') };
  }

  /** ListObjectsV2 under a prefix, every page, keys in S3's (UTF-8 binary) order. */
  async listKeys(bucket: string, prefix: string): Promise<string[]> {
    return (await this.listObjects(bucket, prefix)).map((o) => o.key);
  }

  /** ListObjectsV2 under a prefix, every page: each object's key, size and last change. */
  async listObjects(bucket: string, prefix: string): Promise<{ key: string; size: number; lastModified: string }[]> {
    const objects: { key: string; size: number; lastModified: string }[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix, ...(token ? { 'continuation-token': token } : {}) };
      const xml = Buffer.from((await this.exchangeSigned({ bucket, key: '' }, 'GET', {}, undefined, query)).bytes).toString('utf8');
      for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const part = m[1];
        const key = /<Key>([^<]*)<\/Key>/.exec(part)?.[1];
        if (key === undefined) continue;
        objects.push({
          key: unescapeXml(key),
          size: Number(/<Size>(\d+)<\/Size>/.exec(part)?.[1] ?? 0),
          lastModified: /<LastModified>([^<]+)<\/LastModified>/.exec(part)?.[1] ?? '',
        });
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? /<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(xml)?.[1] : undefined;
    } while (token);
    return objects;
  }

  /** DeleteObject: S3 answers 204 whether or not the key existed. */
  async deleteObject(loc: S3Location): Promise<void> {
    await this.send(loc, 'DELETE', {}, undefined, 'DeleteObject');
  }

  /** `operation` goes in the query as x-id, as the SDK sends it for the object calls that share a method and path. */
  private async send(loc: S3Location, method: string, headers: Record<string, string>, body: Uint8Array | undefined, operation: string): Promise<Uint8Array> {
    return (await this.exchangeSigned(loc, method, headers, body, { 'x-id': operation })).bytes;
  }

  private async exchangeSigned(
    loc: S3Location,
    method: string,
    headers: Record<string, string>,
    body: Uint8Array | undefined,
    query: Record<string, string> = {},
  ) {
    const payloadHash = Buffer.from(await digest(body ?? new Uint8Array())).toString('hex');
    const req = this.request(this.target(loc), method, { ...headers, 'x-amz-content-sha256': payloadHash }, query);
    const signed = await this.signer.sign({ ...req, body });
    const answer = await (this.options.exchange ?? exchange)(this.url(signed), method, signed.headers as Record<string, string>, body);
    if (answer.status >= 300)
      throw new S3ObjectsError(
        answer.status,
        /<Code>([^<]+)<\/Code>/.exec(Buffer.from(answer.bytes).toString('utf8'))?.[1] ?? (method === 'HEAD' ? 'NotFound' : ''),
      );
    return answer;
  }
}

/**
 * One HTTP exchange with node's client, which (unlike fetch) hands back the body undecoded. Each
 * call opens its own connection: these calls are rare and large, and a pooled socket the server
 * closed while the process was busy (parsing a code set) would fail the next call with ECONNRESET.
 */
function exchange(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
): Promise<{ status: number; bytes: Uint8Array; headers: Record<string, string | string[] | undefined> }> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 500, bytes: new Uint8Array(Buffer.concat(chunks)), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_m, name: string) => XML_ENTITIES[name]);

async function digest(bytes: Uint8Array): Promise<Uint8Array> {
  const hash = new NodeSha256();
  hash.update(bytes);
  return hash.digest();
}

/** The client for this process's files bucket: S3_ENDPOINT (path style, local keys) locally, AWS otherwise. */
/** The practice's files bucket, named by the stack in every function that reads or writes files. */
export function filesBucketFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const name = env.FILES_BUCKET;
  if (!name) throw new Error('FILES_BUCKET is not set');
  return name;
}

export function s3ObjectsFromEnv(env: NodeJS.ProcessEnv = process.env): S3Objects {
  const endpoint = env.S3_ENDPOINT;
  return new S3Objects({
    region: env.AWS_REGION || 'us-east-1',
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
}
