import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectSameOperation,
  recordingHandler,
  SIGNING_TIME,
  TEST_CREDENTIALS,
  wireOf,
  type CannedAnswer,
  type WireRequest,
} from '../../../test/support/aws-wire.js';
import { S3Objects, type S3ObjectsOptions } from './s3-objects.js';

const credentials = { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/EXAMPLE', sessionToken: 'session-token' };
const signingDate = new Date('2026-11-24T08:30:00Z');
const key = 'protected/notes/Lab result (final) #2.pdf';

const setups = [
  { name: 'AWS', sdk: { region: 'us-east-1' }, lite: { region: 'us-east-1' } },
  {
    name: 'the local file store',
    sdk: { region: 'us-east-1', endpoint: 'http://127.0.0.1:4569', forcePathStyle: true },
    lite: { region: 'us-east-1', endpoint: 'http://127.0.0.1:4569' },
  },
];

describe('S3 presigned URLs', () => {
  for (const setup of setups) {
    it(`are the URLs the SDK presigner gives, for ${setup.name}`, async () => {
      const sdk = new S3Client({ ...setup.sdk, credentials, requestChecksumCalculation: 'WHEN_REQUIRED' });
      const lite = new S3Objects({ ...setup.lite, credentials });
      const loc = { bucket: 'tidewell-demo-files', key };
      expect(await lite.presignPut(loc, 'application/pdf', 12345, 900, signingDate)).toBe(
        await getSignedUrl(sdk, new PutObjectCommand({ Bucket: loc.bucket, Key: key, ContentType: 'application/pdf', ContentLength: 12345 }), {
          expiresIn: 900,
          signingDate,
        }),
      );
      expect(await lite.presignPut(loc, 'image/png', undefined, 900, signingDate)).toBe(
        await getSignedUrl(sdk, new PutObjectCommand({ Bucket: loc.bucket, Key: key, ContentType: 'image/png' }), { expiresIn: 900, signingDate }),
      );
      expect(await lite.presignGet(loc, 900, signingDate)).toBe(
        await getSignedUrl(sdk, new GetObjectCommand({ Bucket: loc.bucket, Key: key }), { expiresIn: 900, signingDate }),
      );
    });
  }
});

describe('S3 listing and delete', () => {
  it('reads ListObjectsV2 pages (key, size, last change) and sends DeleteObject', async () => {
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === 'DELETE') return res.writeHead(204).end();
      const second = (req.url ?? '').includes('continuation-token=t1');
      // The documented ListObjectsV2 response (ListBucketResult), in two pages.
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>protected/public/</Prefix>` +
            (second
              ? `<KeyCount>1</KeyCount><IsTruncated>false</IsTruncated><Contents><Key>protected/public/Scans/</Key><LastModified>2026-11-02T00:00:00.000Z</LastModified><Size>0</Size></Contents>`
              : `<KeyCount>1</KeyCount><IsTruncated>true</IsTruncated><NextContinuationToken>t1</NextContinuationToken><Contents><Key>protected/public/a &amp; b.pdf</Key><LastModified>2026-11-01T00:00:00.000Z</LastModified><ETag>"x"</ETag><Size>1234</Size><StorageClass>STANDARD</StorageClass></Contents>`) +
            `</ListBucketResult>`,
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const lite = new S3Objects({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, credentials });
      expect(await lite.listObjects('b', 'protected/public/')).toEqual([
        { key: 'protected/public/a & b.pdf', size: 1234, lastModified: '2026-11-01T00:00:00.000Z' },
        { key: 'protected/public/Scans/', size: 0, lastModified: '2026-11-02T00:00:00.000Z' },
      ]);
      await lite.deleteObject({ bucket: 'b', key: 'protected/public/a & b.pdf' });
      expect(seen.at(-1)).toBe('DELETE /b/protected/public/a%20%26%20b.pdf?x-id=DeleteObject');
    } finally {
      server.close();
    }
  });
});

describe('S3 calls, as @aws-sdk/client-s3 sends them', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: SIGNING_TIME }));
  afterEach(() => vi.useRealTimers());
  const HEADERS = ['host', 'content-type', 'content-length', 'content-encoding', 'x-amz-content-sha256'];
  const bucket = 'tidewell-demo-files';

  function pair(setup: (typeof setups)[number], canned: CannedAnswer) {
    const lite: WireRequest[] = [];
    const record: S3ObjectsOptions['exchange'] = async (url, method, headers, body) => {
      lite.push(wireOf(url, { method, headers, body }));
      return { status: canned.status ?? 200, bytes: new Uint8Array(Buffer.from(canned.body ?? '')), headers: canned.headers ?? {} };
    };
    const sdk = recordingHandler(canned);
    return {
      lite,
      sdk: sdk.requests,
      objects: new S3Objects({ ...setup.lite, credentials: TEST_CREDENTIALS, exchange: record }),
      // Checksums only where S3 requires them: none of these operations does (see docs/aws-operations.md).
      client: new S3Client({
        ...setup.sdk,
        credentials: TEST_CREDENTIALS,
        requestHandler: sdk.requestHandler,
        maxAttempts: 1,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    };
  }

  for (const setup of setups) {
    it(`PutObject, GetObject, HeadObject and DeleteObject are the same requests (${setup.name})`, async () => {
      const body = new Uint8Array(Buffer.from('%PDF-1.7 lab result'));
      const loc = { bucket, key };
      let c = pair(setup, { status: 200, headers: { etag: '"e"' } });
      await c.objects.putObject(loc, body, { contentType: 'application/pdf', contentEncoding: 'gzip' });
      await c.client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/pdf', ContentEncoding: 'gzip', ContentLength: body.length }),
      );
      expectSameOperation(c.lite[0]!, c.sdk[0]!, { headers: HEADERS, service: 's3' });

      c = pair(setup, { status: 200, headers: { 'content-type': 'application/pdf', 'content-length': String(body.length) }, body: '%PDF-1.7 lab result' });
      expect(Buffer.from(await c.objects.getObject(loc)).toString()).toBe('%PDF-1.7 lab result');
      const got = await c.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      expect(await got.Body!.transformToString()).toBe('%PDF-1.7 lab result');
      expectSameOperation(c.lite[0]!, c.sdk[0]!, { headers: HEADERS, service: 's3' });

      c = pair(setup, { status: 200, headers: { 'content-type': 'application/pdf', 'content-length': '12345' } });
      const head = await c.objects.headObject(loc);
      const sdkHead = await c.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect(head).toEqual({ size: sdkHead.ContentLength, contentType: sdkHead.ContentType });
      expectSameOperation(c.lite[0]!, c.sdk[0]!, { headers: HEADERS, service: 's3' });

      c = pair(setup, { status: 204 });
      await c.objects.deleteObject(loc);
      await c.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      expectSameOperation(c.lite[0]!, c.sdk[0]!, { headers: HEADERS, service: 's3' });
    });

    it(`ListObjectsV2 is the same request, page after page, and reads what the SDK reads (${setup.name})`, async () => {
      const pages = [
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>protected/public/</Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken><Contents><Key>protected/public/a &amp; b.pdf</Key><LastModified>2026-11-01T00:00:00.000Z</LastModified><ETag>"x"</ETag><Size>1234</Size><StorageClass>STANDARD</StorageClass></Contents></ListBucketResult>`,
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>protected/public/</Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated><Contents><Key>protected/public/Scans/</Key><LastModified>2026-11-02T00:00:00.000Z</LastModified><ETag>"y"</ETag><Size>0</Size><StorageClass>STANDARD</StorageClass></Contents></ListBucketResult>`,
      ];
      let page = 0;
      let sdkPage = 0;
      const lite: WireRequest[] = [];
      const objects = new S3Objects({
        ...setup.lite,
        credentials: TEST_CREDENTIALS,
        exchange: async (url, method, headers) => {
          lite.push(wireOf(url, { method, headers }));
          return { status: 200, bytes: new Uint8Array(Buffer.from(pages[page++]!)), headers: { 'content-type': 'application/xml' } };
        },
      });
      const sdk = recordingHandler(() => ({ status: 200, headers: { 'content-type': 'application/xml' }, body: pages[sdkPage++]! }));
      const client = new S3Client({ ...setup.sdk, credentials: TEST_CREDENTIALS, requestHandler: sdk.requestHandler, maxAttempts: 1 });
      const listed = await objects.listObjects(bucket, 'protected/public/');
      const first = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'protected/public/' }));
      const second = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: 'protected/public/', ContinuationToken: first.NextContinuationToken }),
      );
      expect(listed).toEqual([...first.Contents!, ...second.Contents!].map((o) => ({ key: o.Key, size: o.Size, lastModified: o.LastModified!.toISOString() })));
      expectSameOperation(lite[0]!, sdk.requests[0]!, { headers: HEADERS, service: 's3' });
      expectSameOperation(lite[1]!, sdk.requests[1]!, { headers: HEADERS, service: 's3' });
    });
  }

  it('names a failure by the Code S3 answers, as the SDK names its error', async () => {
    const canned = {
      status: 404,
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>k</Key><RequestId>r</RequestId></Error>',
    };
    const c = pair(setups[0]!, canned);
    const sdkError = (await c.client.send(new GetObjectCommand({ Bucket: bucket, Key: key })).catch((e: Error) => e)) as Error;
    await expect(c.objects.getObject({ bucket, key })).rejects.toMatchObject({ name: sdkError.name, status: 404 });
  });
});
