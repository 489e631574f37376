import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { CodeSetSource } from '../../../shared/chart/code-sets.js';
import { filesBucketFromEnv, s3ObjectsFromEnv, type S3Objects } from '../adapters/s3-objects.js';
import { codeSetManifestKey as manifestKey, getManifestItem, putManifestItem } from '../../data/code-sets/code-set-manifests.js';

/*
 * An imported code set is one gzip JSON object in the files bucket, named by its content hash
 * (code-sets/<kind>/<sha256-16>.json.gz), plus a manifest item in the table
 * (pk practiceId, sk CODESET#<KIND>) naming the object. A Lambda reads the small manifest with
 * one GetItem per request and downloads the object only when the manifest names one it has not
 * loaded yet (docs/access-patterns.md explains the choice).
 */
export type CodeSetKind = 'icd10' | 'icd10index' | 'cvx' | 'mvx' | 'ndc' | 'drugclass' | 'ddi';

export interface CodeSetManifest {
  kind: CodeSetKind;
  version: string;
  objectKey: string;
  source: CodeSetSource;
}

export const codeSetManifestKey = (kind: CodeSetKind) => manifestKey(kind);

let s3: S3Objects | undefined;
function s3Client(): S3Objects {
  s3 ??= s3ObjectsFromEnv();
  return s3;
}
export function resetCodeSetClients(): void {
  s3 = undefined;
}

const bucket = (): string => filesBucketFromEnv();

function practiceId(): string {
  const id = process.env.PRACTICE_ID;
  if (!id) throw new Error('PRACTICE_ID is not set');
  return id;
}

export async function readManifest(kind: CodeSetKind): Promise<CodeSetManifest | null> {
  const item = await getManifestItem(practiceId(), kind);
  if (!item) return null;
  const { kind: k, version, objectKey, source } = item as unknown as CodeSetManifest;
  return { kind: k, version, objectKey, source };
}

export async function readPayload<T>(manifest: CodeSetManifest): Promise<T> {
  const bytes = await s3Client().getObject({ bucket: bucket(), key: manifest.objectKey });
  return JSON.parse(gunzipSync(bytes).toString('utf8')) as T;
}

/** Uploads the payload, then points the manifest at it (readers never see a manifest without its object). */
export async function writeCodeSet(kind: CodeSetKind, payload: unknown, source: CodeSetSource): Promise<CodeSetManifest> {
  const json = Buffer.from(JSON.stringify(payload), 'utf8');
  const version = createHash('sha256').update(json).digest('hex').slice(0, 16);
  const objectKey = `code-sets/${kind}/${version}.json.gz`;
  const body = gzipSync(json, { level: 9 });
  await s3Client().putObject({ bucket: bucket(), key: objectKey }, body, { contentType: 'application/json', contentEncoding: 'gzip' });
  const manifest: CodeSetManifest = { kind, version, objectKey, source: { ...source, loadedAt: new Date().toISOString() } };
  await putManifestItem(practiceId(), kind, manifest);
  return manifest;
}

/**
 * Per-instance cache of one code set: the built index for the manifest version last seen, the
 * built-in starter when nothing was imported (loaded on first use: the starter lists stay out of
 * the cold-start bundle). A load in flight is shared by concurrent requests.
 */
export function codeSetCache<P, T>(kind: CodeSetKind, build: (payload: P) => T, starter: () => Promise<{ value: T; source: CodeSetSource }>) {
  let current: { version: string; value: T; source: CodeSetSource } | undefined;
  let loading: { version: string; promise: Promise<{ version: string; value: T; source: CodeSetSource }> } | undefined;
  let starterValue: Promise<{ value: T; source: CodeSetSource }> | undefined;

  return async function get(): Promise<{ value: T; source: CodeSetSource }> {
    const manifest = await readManifest(kind);
    if (!manifest) return (starterValue ??= starter());
    if (current?.version === manifest.version) return current;
    if (loading?.version !== manifest.version) {
      const promise = readPayload<P>(manifest).then((payload) => ({ version: manifest.version, value: build(payload), source: manifest.source }));
      loading = { version: manifest.version, promise };
      promise.then(
        (loaded) => {
          current = loaded;
        },
        () => {
          loading = undefined;
        },
      );
    }
    return loading.promise;
  };
}
