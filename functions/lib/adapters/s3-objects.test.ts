import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { S3Objects } from './s3-objects.js';

const credentials = { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/EXAMPLE', sessionToken: 'session-token' };
const signingDate = new Date('2026-11-24T08:30:00Z');
const key = 'protected/notes/Lab result (final) #2.pdf';

const setups = [
  { name: 'AWS', sdk: { region: 'us-east-1' }, lite: { region: 'us-east-1' } },
  { name: 'the local file store', sdk: { region: 'us-east-1', endpoint: 'http://127.0.0.1:4569', forcePathStyle: true }, lite: { region: 'us-east-1', endpoint: 'http://127.0.0.1:4569' } },
];

describe('S3 presigned URLs', () => {
  for (const setup of setups) {
    it(`are the URLs the SDK presigner gives, for ${setup.name}`, async () => {
      const sdk = new S3Client({ ...setup.sdk, credentials, requestChecksumCalculation: 'WHEN_REQUIRED' });
      const lite = new S3Objects({ ...setup.lite, credentials });
      const loc = { bucket: 'tidewell-demo-files', key };
      expect(await lite.presignPut(loc, 'application/pdf', 12345, 900, signingDate)).toBe(
        await getSignedUrl(sdk, new PutObjectCommand({ Bucket: loc.bucket, Key: key, ContentType: 'application/pdf', ContentLength: 12345 }), { expiresIn: 900, signingDate }),
      );
      expect(await lite.presignPut(loc, 'image/png', undefined, 900, signingDate)).toBe(
        await getSignedUrl(sdk, new PutObjectCommand({ Bucket: loc.bucket, Key: key, ContentType: 'image/png' }), { expiresIn: 900, signingDate }),
      );
      expect(await lite.presignGet(loc, 900, signingDate)).toBe(await getSignedUrl(sdk, new GetObjectCommand({ Bucket: loc.bucket, Key: key }), { expiresIn: 900, signingDate }));
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
      res.writeHead(200, { 'content-type': 'application/xml' }).end(
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
      expect(seen.at(-1)).toBe('DELETE /b/protected/public/a%20%26%20b.pdf');
    } finally {
      server.close();
    }
  });
});
