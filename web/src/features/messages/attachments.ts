import { apiRequest } from '../../lib/api-client.js';

export interface UploadedAttachment {
  key: string;
  name: string;
  contentType: string;
  size: number;
}

/**
 * Presigned PUT straight to the files bucket; the API checks the stored type and size when the
 * text is sent. A patient's folder (patients/<id>/sms) ties the upload to the chart in the audit.
 */
export async function uploadAttachment(file: File, folder: string): Promise<UploadedAttachment> {
  const contentType = file.type || 'application/octet-stream';
  const safeName = file.name.replace(/[^\w.-]+/g, '_');
  const presigned = await apiRequest<{ signedUrl: string; key: string }>({
    method: 'POST',
    path: '/v1/s3/files',
    body: { key: `${folder}/${safeName}`, contentType, size: file.size },
  });
  const response = await fetch(presigned.signedUrl, { method: 'PUT', body: file, headers: { 'Content-Type': contentType } });
  if (!response.ok) throw new Error(`Upload failed (${response.status})`);
  return { key: presigned.key, name: file.name, contentType, size: file.size };
}
