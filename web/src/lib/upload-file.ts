import { SignedFileUrl } from '../../../shared/files/file-responses.js';
import { fileExtension } from '../../../shared/notes/files.js';
import { apiRequest } from './api-client.js';

export interface UploadedFile {
  /** Where the server stored it: protected/<folder>/<id>/<stored name>. */
  key: string;
  /** The name the user chose, as shown beside the file. */
  name: string;
  contentType: string;
  size: number;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  xml: 'application/xml',
  ics: 'text/calendar',
  txt: 'text/plain',
  heic: 'image/heic',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  mpeg: 'audio/mpeg',
  oga: 'audio/ogg',
  weba: 'audio/webm',
  webm: 'video/webm',
  mp4: 'video/mp4',
};

/** The type a file is stored with: the browser's, or one from its extension when the browser has none (heic, ics). */
export function contentTypeOf(name: string, browserType?: string): string {
  return browserType || CONTENT_TYPES[fileExtension(name)] || 'application/octet-stream';
}

/**
 * The name an upload is stored under: letters, digits, '.', '-' and '_' only, so the key needs no
 * escaping anywhere it travels (a signed URL, an MMS media link, a FHIR attachment); the server
 * still shortens it to what every store holds.
 */
export function storedFileName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_');
}

/**
 * Presigned PUT straight to the files bucket: the API checks the type and size, picks the stored
 * key (under `folder`, with or without its trailing '/') and signs; the bytes never pass through it.
 */
export async function uploadFile(file: File, folder: string): Promise<UploadedFile> {
  const contentType = contentTypeOf(file.name, file.type);
  const presigned = await apiRequest(
    {
      method: 'POST',
      path: '/v1/s3/files',
      body: { key: `${folder.replace(/\/+$/, '')}/${storedFileName(file.name)}`, contentType, size: file.size },
    },
    SignedFileUrl,
  );
  const response = await fetch(presigned.signedUrl, { method: 'PUT', body: file, headers: { 'Content-Type': contentType } });
  if (!response.ok) throw new Error(`Upload failed (${response.status})`);
  return { key: presigned.key, name: file.name, contentType, size: file.size };
}
