import { filesBucketFromEnv, s3ObjectsFromEnv, type S3Objects } from '../../lib/adapters/s3-objects.js';

let s3: S3Objects | undefined;

/** The files bucket and one client for it, shared by the chart export and the practice export. */
export function store(): { s3: S3Objects; bucket: string } {
  const bucket = filesBucketFromEnv();
  s3 ??= s3ObjectsFromEnv();
  return { s3, bucket };
}
