import type { NoteFile } from '../../../../../shared/notes/note-schema.js';
import { apiRequest } from '../../../lib/api-client.js';

interface Presigned {
  signedUrl: string;
  key: string;
}

/** Presigned PUT straight to the files bucket; the API only signs (spec notes §7 Files). */
export async function uploadFile(file: File, folder: string): Promise<NoteFile> {
  const contentType = file.type || 'application/octet-stream';
  const presigned = await apiRequest<Presigned>({ method: 'POST', path: '/v1/s3/files', body: { key: `${folder}/${file.name}`, contentType, size: file.size } });
  const response = await fetch(presigned.signedUrl, { method: 'PUT', body: file, headers: { 'Content-Type': contentType } });
  if (!response.ok) throw new Error(`Upload failed (${response.status})`);
  return { key: presigned.key, name: file.name, contentType, size: file.size };
}

/** A short-lived download link for an attached file. */
export async function noteFileUrl(key: string): Promise<string> {
  return (await apiRequest<Presigned>({ path: '/v1/s3/files', query: { key } })).signedUrl;
}
