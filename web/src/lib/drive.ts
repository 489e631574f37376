import { DRIVE_ROOT } from '../../../shared/files/drive.js';
import { DriveFileDeleted, DriveFolderCreated, DriveListing, SignedFileUrl } from '../../../shared/files/file-responses.js';
import { apiRequest } from './api-client.js';

export { DRIVE_ROOT };
/** Where a file's type comes from when the browser has none; kept beside the upload it belongs to. */
export { contentTypeOf } from './upload-file.js';

/**
 * The path staff see for a drive file (public/<folders>/<name>): its stored key without the access
 * level and the upload's id folder. Null for a file outside the drive (a text's attachment).
 */
export function drivePath(key: string): string | null {
  const match = /^protected\/(public\/(?:[^/]+\/)*)[^/]+\/([^/]+)$/.exec(key);
  return match ? `${match[1]}${match[2]}` : null;
}

export function listDriveFolder(prefix: string): Promise<DriveListing> {
  return apiRequest({ path: '/v1/s3/files', query: { prefix } }, DriveListing);
}

export function createDriveFolder(path: string, name: string): Promise<{ prefix: string }> {
  return apiRequest({ method: 'POST', path: '/v1/s3/folders', body: { path, name } }, DriveFolderCreated);
}

export function deleteDriveFile(key: string): Promise<{ key: string; deleted: true }> {
  return apiRequest({ method: 'DELETE', path: '/v1/s3/files', query: { key } }, DriveFileDeleted);
}

export async function signedFileUrl(key: string): Promise<string> {
  return (await apiRequest({ path: '/v1/s3/files', query: { key } }, SignedFileUrl)).signedUrl;
}
