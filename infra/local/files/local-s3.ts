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
  prototype: { getResourcePath(bucket: string, key: string, resource: string): string; putObject(object: { bucket: string; key: string }): Promise<unknown> };
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

export function tooLongForDisk(path: string): boolean {
  return path.split(sep).some((part) => Buffer.byteLength(part, 'utf8') > LOCAL_NAME_MAX_BYTES);
}

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** The files bucket on s3rver, with CORS for the web origin as the stack configures it in AWS. */
export async function startLocalS3(options: { dataDir: string; bucket: string; webOrigins: string[]; silent: boolean }): Promise<LocalS3> {
  acceptAccessKeys(['local', ...(process.env.AWS_ACCESS_KEY_ID ? [process.env.AWS_ACCESS_KEY_ID] : [])]);
  guardLongNames();
  const directory = join(options.dataDir, 's3');
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: options.silent,
    directory,
    configureBuckets: [{ name: options.bucket, configs: [corsConfiguration(options.webOrigins)] }],
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
