import { DRIVE_ROOT, type DriveListing } from '../../../../shared/files/drive.js';
import { fileExtension } from '../../../../shared/notes/files.js';
import { apiRequest } from '../../lib/api-client.js';

export { DRIVE_ROOT };

/**
 * The path staff see for a drive file (public/<folders>/<name>): its stored key without the access
 * level and the upload's id folder. Null for a file outside the drive (a text's attachment).
 */
export function drivePath(key: string): string | null {
  const match = /^protected\/(public\/(?:[^/]+\/)*)[^/]+\/([^/]+)$/.exec(key);
  return match ? `${match[1]}${match[2]}` : null;
}

export function listDriveFolder(prefix: string): Promise<DriveListing> {
  return apiRequest<DriveListing>({ path: '/v1/s3/files', query: { prefix } });
}

export function createDriveFolder(path: string, name: string): Promise<{ prefix: string }> {
  return apiRequest<{ prefix: string }>({ method: 'POST', path: '/v1/s3/folders', body: { path, name } });
}

export function deleteDriveFile(key: string): Promise<{ key: string; deleted: true }> {
  return apiRequest<{ key: string; deleted: true }>({ method: 'DELETE', path: '/v1/s3/files', query: { key } });
}

export async function signedFileUrl(key: string): Promise<string> {
  return (await apiRequest<{ signedUrl: string }>({ path: '/v1/s3/files', query: { key } })).signedUrl;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf', csv: 'text/csv', xml: 'application/xml', ics: 'text/calendar', txt: 'text/plain', heic: 'image/heic',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff',
  wav: 'audio/wav', mp3: 'audio/mpeg', mpeg: 'audio/mpeg', oga: 'audio/ogg', weba: 'audio/webm', webm: 'video/webm', mp4: 'video/mp4',
};

/** The type a file is stored with: the browser's, or one from its extension when the browser has none (heic, ics). */
export function contentTypeOf(name: string, browserType?: string): string {
  return browserType || CONTENT_TYPES[fileExtension(name)] || 'application/octet-stream';
}

/** Presigned PUT to the folder; the server checks the type and size and picks the stored key. */
export async function uploadToDrive(file: File, folder: string): Promise<string> {
  const contentType = contentTypeOf(file.name, file.type);
  const { signedUrl, key } = await apiRequest<{ signedUrl: string; key: string }>({
    method: 'POST',
    path: '/v1/s3/files',
    body: { key: `${folder}${file.name.replace(/[/\\]+/g, '_')}`, contentType, size: file.size },
  });
  const response = await fetch(signedUrl, { method: 'PUT', body: file, headers: { 'Content-Type': contentType } });
  if (!response.ok) throw new Error(`Upload failed (${response.status})`);
  return key;
}
