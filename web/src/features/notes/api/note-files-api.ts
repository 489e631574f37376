import { apiRequest } from '../../../lib/api-client.js';

/** A short-lived download link for an attached file. */
export async function noteFileUrl(key: string): Promise<string> {
  return (await apiRequest<{ signedUrl: string; key: string }>({ path: '/v1/s3/files', query: { key } })).signedUrl;
}
