import { apiRequest } from '../../lib/api-client.js';

export interface UploadedAttachment {
  key: string;
  name: string;
  contentType: string;
  size: number;
}

/** Presigned PUT straight to the files bucket; the API only signs and checks type and size when sending. */
export async function uploadAttachment(file: File, conversationId: string): Promise<UploadedAttachment> {
  const contentType = file.type || 'application/octet-stream';
  const safeName = file.name.replace(/[^\w.-]+/g, '_');
  const presigned = await apiRequest<{ signedUrl: string; key: string }>({
    method: 'POST',
    path: '/v1/s3/files',
    body: { key: `sms/${conversationId}/${Date.now()}-${safeName}`, contentType, size: file.size },
  });
  const response = await fetch(presigned.signedUrl, { method: 'PUT', body: file, headers: { 'Content-Type': contentType } });
  if (!response.ok) throw new Error(`Upload failed (${response.status})`);
  return { key: presigned.key, name: file.name, contentType, size: file.size };
}

export async function openAttachment(key: string): Promise<void> {
  const { signedUrl } = await apiRequest<{ signedUrl: string }>({ path: '/v1/s3/files', query: { key } });
  window.open(signedUrl, '_blank', 'noopener');
}
