import * as z from '../zod.js';

/** The practice drive's root folder (spec chart-data §2b); every drive path starts with it. */
export const DRIVE_ROOT = 'public/';
export const FOLDER_NAME_MAX = 100;

export const FILE_MESSAGES = {
  unableToDeleteFolders: 'Unable to delete folders.',
  deleteConfirm: 'Are you sure you want to delete this file?',
  deleteWarning: 'It is removed everywhere it is used, and this cannot be undone.',
  moveSoon: 'The ability to move files between folders is coming soon!',
  uploading: 'Uploading files',
  uploaded: 'Files uploaded',
  uploadFailed: 'Error uploading files',
  pickerTitle: 'Select Practice Files in the Cloud',
  pickerHint: 'Double click a file to add it',
  folderNameRequired: 'Folder name is required',
  folderNameInvalid: 'A folder name cannot contain "/" or be "." or ".."',
  folderNotValid: 'The folder is not valid',
  unablePreview: 'Unable to preview file',
  cannotView: 'This file cannot be viewed in the browser. Please download the file to view it.',
  videoUnsupported: 'Video playback is not supported by your browser.',
  corsUnsupported: 'CORS not supported..',
  columnsMismatch: 'Columns and values arrays must have the same length.',
} as const;

export const unsupportedType = (type: string) => `.${type} is not supported.`;

/** A drive folder path: public/ then names, each followed by '/'. */
export function isDriveFolder(path: string): boolean {
  if (!path.startsWith(DRIVE_ROOT) || !path.endsWith('/')) return false;
  return path
    .slice(DRIVE_ROOT.length)
    .split('/')
    .slice(0, -1)
    .every((name) => folderNameError(name) === null);
}

export function folderNameError(name: string): string | null {
  if (!name.trim()) return FILE_MESSAGES.folderNameRequired;
  if (name.includes('/') || name === '.' || name === '..' || name.length > FOLDER_NAME_MAX) return FILE_MESSAGES.folderNameInvalid;
  return null;
}

export const DriveListQuery = z.object({ prefix: z.string().check(z.minLength(1), z.maxLength(600)) });
export const CreateFolderBody = z.object({
  path: z.string().check(z.minLength(1), z.maxLength(600)),
  name: z.string().check(z.maxLength(FOLDER_NAME_MAX * 2)),
});
export type CreateFolderBody = z.infer<typeof CreateFolderBody>;

export type { DriveFile, DriveListing } from './file-responses.js';
