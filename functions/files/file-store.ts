import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

let client: S3Client | undefined;

/** One S3 client per process; S3_ENDPOINT points it at the local file store. */
function s3(): S3Client {
  if (!client) {
    const endpoint = process.env.S3_ENDPOINT;
    client = new S3Client(
      endpoint
        ? {
            endpoint,
            region: process.env.AWS_REGION ?? 'us-east-1',
            forcePathStyle: true,
            requestChecksumCalculation: 'WHEN_REQUIRED',
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : { requestChecksumCalculation: 'WHEN_REQUIRED' },
    );
  }
  return client;
}

function bucket(): string {
  const name = process.env.FILES_BUCKET;
  if (!name) throw new Error('FILES_BUCKET is not set');
  return name;
}

export const PRESIGN_EXPIRY_SECONDS = 900;

export function presignPut(key: string, contentType: string, size?: number): Promise<string> {
  return getSignedUrl(
    s3(),
    new PutObjectCommand({ Bucket: bucket(), Key: key, ContentType: contentType, ...(size !== undefined ? { ContentLength: size } : {}) }),
    { expiresIn: PRESIGN_EXPIRY_SECONDS },
  );
}

export function presignGet(key: string): Promise<string> {
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket(), Key: key }), { expiresIn: PRESIGN_EXPIRY_SECONDS });
}
