import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
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

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** The files bucket on s3rver, with CORS for the web origin as the stack configures it in AWS. */
export async function startLocalS3(options: { dataDir: string; bucket: string; webOrigins: string[]; silent: boolean }): Promise<LocalS3> {
  acceptAccessKeys(['local', ...(process.env.AWS_ACCESS_KEY_ID ? [process.env.AWS_ACCESS_KEY_ID] : [])]);
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
