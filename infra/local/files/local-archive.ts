import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveReader } from '../../../functions/lib/audit/archive-chain.js';

const OBJECT_SUFFIX = '._S3rver_object';

/** Where the file store keeps an object's bytes: `<data>/s3/<bucket>/<key folders>/<name>._S3rver_object`. */
export function localObjectPath(dataDir: string, bucket: string, key: string): string {
  return `${join(dataDir, 's3', bucket, ...key.split('/'))}${OBJECT_SUFFIX}`;
}

/**
 * The local audit archive read straight from the file store's folder, so `audit-verify` works on a
 * local practice whether or not its runtime is running (and sees exactly the bytes on disk).
 */
export function localArchiveReader(dataDir: string, bucket: string): ArchiveReader {
  return {
    async list(prefix) {
      const folder = join(dataDir, 's3', bucket, ...prefix.split('/').filter(Boolean));
      if (!existsSync(folder)) return [];
      return readdirSync(folder)
        .filter((name) => name.endsWith(OBJECT_SUFFIX))
        .map((name) => `${prefix}${name.slice(0, -OBJECT_SUFFIX.length)}`)
        .sort();
    },
    async get(key) {
      const path = localObjectPath(dataDir, bucket, key);
      return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    },
  };
}
