import { filesBucketFromEnv, s3ObjectsFromEnv, type S3Objects } from '../adapters/s3-objects.js';

let client: S3Objects | undefined;

/** One S3 signer per process; S3_ENDPOINT points it at the local file store. */
function s3(): S3Objects {
  client ??= s3ObjectsFromEnv();
  return client;
}

const bucket = (): string => filesBucketFromEnv();

export const PRESIGN_EXPIRY_SECONDS = 900;

export function presignPut(key: string, contentType: string, size?: number): Promise<string> {
  return s3().presignPut({ bucket: bucket(), key }, contentType, size, PRESIGN_EXPIRY_SECONDS);
}

export function presignGet(key: string): Promise<string> {
  return s3().presignGet({ bucket: bucket(), key }, PRESIGN_EXPIRY_SECONDS);
}

export function readObject(key: string): Promise<Uint8Array> {
  return s3().getObject({ bucket: bucket(), key });
}

export function listObjects(prefix: string): Promise<{ key: string; size: number; lastModified: string }[]> {
  return s3().listObjects(bucket(), prefix);
}

export function putEmpty(key: string): Promise<void> {
  return s3().putObject({ bucket: bucket(), key }, new Uint8Array(), { contentType: 'application/x-directory' });
}

export function deleteObject(key: string): Promise<void> {
  return s3().deleteObject({ bucket: bucket(), key });
}

export async function objectExists(key: string): Promise<boolean> {
  try {
    await s3().headObject({ bucket: bucket(), key });
    return true;
  } catch (e) {
    if (e instanceof Error && 'status' in e && (e as { status: number }).status === 404) return false;
    throw e;
  }
}
