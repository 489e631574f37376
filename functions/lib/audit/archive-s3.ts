import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { ArchiveReader } from './archive-chain.js';

/** The archive bucket as the archiver and `npm run practice -- audit-verify` reach it. */
export interface ArchiveStore extends ArchiveReader {
  /** Creates the object; false when one already has that key (the object is never replaced). */
  putIfAbsent(key: string, body: string): Promise<boolean>;
}

/** S3_ENDPOINT (the local file store) gets path-style requests and local keys, as the files bucket does. */
export function archiveS3Client(env: NodeJS.ProcessEnv = process.env): S3Client {
  const endpoint = env.S3_ENDPOINT;
  return new S3Client({
    region: env.AWS_REGION || 'us-east-1',
    ...(endpoint
      ? {
          endpoint,
          forcePathStyle: true,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
        }
      : {}),
  });
}

const status = (error: unknown) =>
  error instanceof S3ServiceException ? error.$metadata?.httpStatusCode : (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

export function s3ArchiveStore(client: S3Client, bucket: string): ArchiveStore {
  return {
    async putIfAbsent(key, body) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: body,
            ContentType: 'application/json',
            // Conditional create: a second writer of batch n gets 412 instead of a second version.
            IfNoneMatch: '*',
            // Object Lock refuses a put without an integrity checksum.
            ChecksumAlgorithm: 'SHA256',
          }),
        );
        return true;
      } catch (error) {
        // 412: the key exists; 409: a concurrent conditional put of the same key is in flight.
        if (status(error) === 412 || status(error) === 409) return false;
        throw error;
      }
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return await out.Body!.transformToString('utf8');
      } catch (error) {
        if (status(error) === 404 || (error as Error)?.name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const out = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
  };
}
