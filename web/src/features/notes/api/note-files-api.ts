import { SignedFileUrl } from '../../../../../shared/files/file-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

/** A short-lived download link for an attached file. */
export async function noteFileUrl(key: string): Promise<string> {
  return (await apiRequest({ path: '/v1/s3/files', query: { key } }, SignedFileUrl)).signedUrl;
}
