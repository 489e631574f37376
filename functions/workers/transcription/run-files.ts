/** A run's objects in the files bucket: the recording folder it reads, the run folder it writes. */
import { filesBucketFromEnv, s3ObjectsFromEnv, type S3Objects } from '../../lib/adapters/s3-objects.js';

let client: S3Objects | undefined;
export const s3 = (): S3Objects => (client ??= s3ObjectsFromEnv());

export const filesBucket = (): string => filesBucketFromEnv();

export const readObject = (key: string) => s3().getObject({ bucket: filesBucket(), key });
export const writeObject = (key: string, body: Uint8Array, contentType: string) => s3().putObject({ bucket: filesBucket(), key }, body, { contentType });
export const readJson = async <T>(key: string): Promise<T> => JSON.parse(Buffer.from(await readObject(key)).toString('utf8')) as T;
export const writeJson = (key: string, value: unknown) => writeObject(key, Buffer.from(JSON.stringify(value)), 'application/json');
export const listKeys = (prefix: string) => s3().listKeys(filesBucket(), prefix);
