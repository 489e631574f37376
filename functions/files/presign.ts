import * as z from 'zod';
import { uploadError } from '../../shared/notes/files.js';
import type { PresignUploadBody } from '../../shared/notes/note-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { ValidationError } from '../lib/errors.js';
import { presignGet, presignPut } from './file-store.js';

/** Files a practice user uploads live under this access-level prefix of the files bucket. */
export const FILES_PREFIX = 'protected/';

export const FileKeyQuery = z.object({ key: z.string().trim().min(1).max(600) });

/** A relative key without '..', empty or absolute segments, placed under the access-level prefix. */
export function storedKey(key: string): string {
  const trimmed = key.trim().replace(/^\/+/, '');
  const segments = trimmed.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw new ValidationError('The file key is not valid', { key: 'is invalid' });
  return trimmed.startsWith(FILES_PREFIX) ? trimmed : `${FILES_PREFIX}${trimmed}`;
}

/** POST /v1/s3/files {key, contentType, size?} → {signedUrl, key}: a presigned PUT, refused for blocked types and over 250,000,000 bytes. */
export async function presignUpload(auth: AuthContext, body: PresignUploadBody): Promise<{ signedUrl: string; key: string }> {
  const problem = uploadError(body.key, body.size);
  if (problem) throw new ValidationError(problem, { key: problem });
  const key = storedKey(body.key);
  const signedUrl = await presignPut(key, body.contentType, body.size);
  await writeAudit(auth, { action: 'create', entity: 'FILE', entityId: key });
  return { signedUrl, key };
}

/** GET /v1/s3/files?key= → {signedUrl, key}: a presigned GET for viewing or downloading. */
export async function presignDownload(auth: AuthContext, rawKey: string): Promise<{ signedUrl: string; key: string }> {
  const key = storedKey(rawKey);
  const signedUrl = await presignGet(key);
  await writeAudit(auth, { action: 'read', entity: 'FILE', entityId: key });
  return { signedUrl, key };
}
