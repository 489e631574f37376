import { mkdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { createRequire } from 'node:module';
import S3rver from 's3rver';

/**
 * s3rver knows one access key (S3RVER) and does not verify SigV4 signatures; it only looks the
 * key id up. Registering the ids local clients sign with lets the handlers' ordinary S3 clients
 * (default credential chain) and presigned URLs work unchanged.
 */
function acceptAccessKeys(ids: string[]): void {
  const { DUMMY_ACCOUNT } = createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
  };
  for (const id of ids) DUMMY_ACCOUNT.createKeyPair(id, id);
}

/** The longest file or folder name the local file system takes (NAME_MAX), in bytes. */
export const LOCAL_NAME_MAX_BYTES = 255;

interface StoreInternals {
  prototype: {
    getResourcePath(bucket: string, key: string, resource: string): string;
    existsObject(bucket: string, key: string): Promise<boolean>;
    putObject(object: { bucket: string; key: string }): Promise<unknown>;
    putObjectMultipart(bucket: string, key: string, ...rest: unknown[]): Promise<unknown>;
    copyObject(srcBucket: string, srcKey: string, destBucket: string, destKey: string, ...rest: unknown[]): Promise<unknown>;
    deleteObject(bucket: string, key: string): Promise<unknown>;
  };
}

/**
 * s3rver keeps each object as files named after its key's last segment, and opens them with a
 * write stream that has no error listener: a name longer than the file system allows would end the
 * whole runtime. S3 itself takes such a key, so the local store answers it with S3's own 400
 * (KeyTooLongError) instead, and nothing is written.
 */
export function guardLongNames(): void {
  const require = createRequire(import.meta.url);
  const Store = require('s3rver/lib/stores/filesystem.js') as StoreInternals;
  const S3Error = require('s3rver/lib/models/error.js') as new (code: string, message: string) => Error;
  const original = Store.prototype.putObject as ((object: { bucket: string; key: string }) => Promise<unknown>) & { guarded?: boolean };
  if (original.guarded) return;
  const guarded = async function (this: StoreInternals['prototype'], object: { bucket: string; key: string }) {
    if (tooLongForDisk(this.getResourcePath(object.bucket, object.key, 'metadata.json'))) {
      throw new S3Error('KeyTooLongError', 'A name in this key is longer than the local file store can keep');
    }
    return original.call(this, object);
  };
  Store.prototype.putObject = Object.assign(guarded, { guarded: true });
}

/** The local practice's audit archive bucket in the file store (`<data>/s3/<bucket>/audit/…`). */
export const localAuditArchiveBucket = (slug: string) => `tidewell-${slug}-audit-archive`;

/** Buckets whose objects the local store keeps as S3 Object Lock in compliance mode would. */
const lockedBuckets = new Set<string>();

export const OBJECT_LOCKED_MESSAGE = 'Object Lock (compliance mode): this object cannot be deleted or replaced before its retention date';

/**
 * s3rver has no Object Lock. For the buckets named here (the audit archive), the store refuses
 * what compliance mode refuses to anyone, root included: a delete answers 403 AccessDenied and
 * nothing is removed; writing to a key that exists answers 412 PreconditionFailed (S3's answer to
 * the archiver's If-None-Match put; AWS would keep the locked version beside a new one, the local
 * store is stricter and keeps only the first). The retention never ends locally.
 */
export function lockObjects(buckets: readonly string[]): void {
  for (const bucket of buckets) lockedBuckets.add(bucket);
  const require = createRequire(import.meta.url);
  const Store = require('s3rver/lib/stores/filesystem.js') as StoreInternals;
  const S3Error = require('s3rver/lib/models/error.js') as new (code: string, message: string) => Error;
  const proto = Store.prototype as StoreInternals['prototype'] & { objectLock?: boolean };
  if (proto.objectLock) return;
  proto.objectLock = true;
  const refuseReplace = async (store: StoreInternals['prototype'], bucket: string, key: string) => {
    if (lockedBuckets.has(bucket) && (await store.existsObject(bucket, key))) throw new S3Error('PreconditionFailed', OBJECT_LOCKED_MESSAGE);
  };
  const { putObject, putObjectMultipart, copyObject, deleteObject } = proto;
  proto.putObject = async function (this: StoreInternals['prototype'], object) {
    await refuseReplace(this, object.bucket, object.key);
    return putObject.call(this, object);
  };
  proto.putObjectMultipart = async function (this: StoreInternals['prototype'], bucket, key, ...rest) {
    await refuseReplace(this, bucket, key);
    return putObjectMultipart.call(this, bucket, key, ...rest);
  };
  proto.copyObject = async function (this: StoreInternals['prototype'], srcBucket, srcKey, destBucket, destKey, ...rest) {
    await refuseReplace(this, destBucket, destKey);
    return copyObject.call(this, srcBucket, srcKey, destBucket, destKey, ...rest);
  };
  proto.deleteObject = async function (this: StoreInternals['prototype'], bucket, key) {
    if (lockedBuckets.has(bucket)) throw new S3Error('AccessDenied', OBJECT_LOCKED_MESSAGE);
    return deleteObject.call(this, bucket, key);
  };
}

export function tooLongForDisk(path: string): boolean {
  return path.split(sep).some((part) => Buffer.byteLength(part, 'utf8') > LOCAL_NAME_MAX_BYTES);
}

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * The files bucket on s3rver, with CORS for the web origin as the stack configures it in AWS, and
 * the locked buckets (the audit archive) whose objects can be neither deleted nor replaced.
 */
export async function startLocalS3(options: {
  dataDir: string;
  bucket: string;
  lockedBuckets?: string[];
  webOrigins: string[];
  silent: boolean;
}): Promise<LocalS3> {
  acceptAccessKeys(['local', ...(process.env.AWS_ACCESS_KEY_ID ? [process.env.AWS_ACCESS_KEY_ID] : [])]);
  guardLongNames();
  lockObjects(options.lockedBuckets ?? []);
  const directory = join(options.dataDir, 's3');
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: options.silent,
    directory,
    configureBuckets: [
      { name: options.bucket, configs: [corsConfiguration(options.webOrigins)] },
      ...(options.lockedBuckets ?? []).map((name) => ({ name, configs: [] })),
    ],
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    stop: () => server.close(),
  };
}

export function corsConfiguration(origins: string[]): string {
  const allowed = origins.map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join('');
  return (
    '<CORSConfiguration><CORSRule>' +
    allowed +
    '<AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>' +
    '<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds>' +
    '</CORSRule></CORSConfiguration>'
  );
}
