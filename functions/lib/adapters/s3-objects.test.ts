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
