import { CreateFolderBody, DRIVE_ROOT, FILE_MESSAGES, folderNameError, isDriveFolder, type DriveFile, type DriveListing } from '../../shared/files/drive.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { deleteObject, listObjects, objectExists, putEmpty } from '../lib/files/file-store.js';
import { FILES_PREFIX, storedKey } from '../lib/files/presign.js';

const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function driveFolder(path: string): string {
  const folder = path.trim().replace(/^\/+/, '');
  const normalized = folder.endsWith('/') ? folder : `${folder}/`;
  if (!isDriveFolder(normalized)) throw new ValidationError(FILE_MESSAGES.folderNotValid, { prefix: FILE_MESSAGES.folderNotValid });
  return normalized;
}

/**
 * One folder of the drive: its sub-folders and files. Uploads are stored as
 * <folder>/<upload id>/<name> (presign.ts), so an upload id segment is a file, not a folder; a
 * folder made empty is kept by its marker object <folder>/<name>/.
 */
export async function listDriveFolder(auth: AuthContext, prefix: string): Promise<DriveListing> {
  const folder = driveFolder(prefix);
  const stored = `${FILES_PREFIX}${folder}`;
  const folders = new Set<string>();
  const files: DriveFile[] = [];
  for (const object of await listObjects(stored)) {
    const parts = object.key.slice(stored.length).split('/');
    if (parts.length === 2 && UPLOAD_ID.test(parts[0]) && parts[1])
      files.push({ key: object.key, name: parts[1], size: object.size, lastModified: object.lastModified });
    else if (parts.length === 1 && parts[0]) files.push({ key: object.key, name: parts[0], size: object.size, lastModified: object.lastModified });
    else if (parts.length >= 2 && parts[0] && !UPLOAD_ID.test(parts[0])) folders.add(parts[0]);
  }
  await writeAudit(auth, { action: 'list', entity: 'FILE', entityId: stored });
  return {
    prefix: folder,
    folders: [...folders].sort((a, b) => a.localeCompare(b)),
    files: files.sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key)),
  };
}

/** POST /v1/s3/folders {path, name}: an empty folder in the drive (its marker object). */
export async function createDriveFolder(auth: AuthContext, body: CreateFolderBody): Promise<{ prefix: string }> {
  const parent = driveFolder(body.path);
  const name = body.name.trim();
  const problem = folderNameError(name);
  if (problem) throw new ValidationError(problem, { name: problem });
  const prefix = `${parent}${name}/`;
  if (UPLOAD_ID.test(name) || !isDriveFolder(prefix)) throw new ValidationError(FILE_MESSAGES.folderNameInvalid, { name: FILE_MESSAGES.folderNameInvalid });
  await putEmpty(`${FILES_PREFIX}${prefix}`);
  await writeAudit(auth, { action: 'create', entity: 'FILE', entityId: `${FILES_PREFIX}${prefix}` });
  return { prefix };
}

/**
 * DELETE /v1/s3/files?key=: removes one drive file. A folder (a key ending in '/', or one with
 * objects under it) is refused with the spec's 'Unable to delete folders.'; only drive files
 * (public/) are deleted here, so a note's or a message's attachment never disappears from it.
 */
export async function deleteDriveFile(auth: AuthContext, rawKey: string): Promise<{ key: string; deleted: true }> {
  const trimmed = rawKey.trim().replace(/^\/+/, '');
  if (trimmed.endsWith('/')) throw new ValidationError(FILE_MESSAGES.unableToDeleteFolders, { key: FILE_MESSAGES.unableToDeleteFolders });
  const key = storedKey(trimmed);
  if (!key.startsWith(`${FILES_PREFIX}${DRIVE_ROOT}`))
    throw new ValidationError('Only files of the practice drive can be deleted', { key: 'is not a drive file' });
  if (!(await objectExists(key))) {
    if ((await listObjects(`${key}/`)).length) throw new ValidationError(FILE_MESSAGES.unableToDeleteFolders, { key: FILE_MESSAGES.unableToDeleteFolders });
    throw new NotFoundError('File not found');
  }
  await deleteObject(key);
  await writeAudit(auth, { action: 'delete', entity: 'FILE', entityId: key });
  return { key, deleted: true };
}
