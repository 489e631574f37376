import { randomUUID } from 'node:crypto';
import * as z from '../../../shared/zod.js';
import { safeFileName, uploadError } from '../../../shared/notes/files.js';
import type { PresignUploadBody } from '../../../shared/notes/note-schema.js';
import type { AuthContext } from '../auth/auth-context.js';
import { writeAudit } from '../audit/audit-repository.js';
import { ValidationError } from '../errors.js';
import { getPatient } from '../../data/patients/patient-repository.js';
import { presignGet, presignPut } from './file-store.js';

/** Files a practice user uploads live under this access-level prefix of the files bucket. */
export const FILES_PREFIX = 'protected/';

export const FileKeyQuery = z.object({ key: z.string().check(z.trim(), z.minLength(1), z.maxLength(600)) });
/** GET /v1/s3/files reads a file (?key=) or lists a drive folder (?prefix=), spec chart-data §7. */
export const FileReadQuery = z.object({
  key: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(600))),
  prefix: z.optional(z.string().check(z.minLength(1), z.maxLength(600))),
});

/** A relative key without '..', empty or absolute segments, placed under the access-level prefix. */
export function storedKey(key: string): string {
  const trimmed = key.trim().replace(/^\/+/, '');
  const segments = trimmed.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw new ValidationError('The file key is not valid', { key: 'is invalid' });
  return trimmed.startsWith(FILES_PREFIX) ? trimmed : `${FILES_PREFIX}${trimmed}`;
}

/**
 * The key an upload is stored under: the client's folder, then a fresh id, then the file name
 * (protected/<folder>/<uuid>/<name>). The server chooses it, so a presigned PUT can never land
 * on a key someone already uploaded to, whatever key the request names.
 */
export function newUploadKey(requested: string, id: string = randomUUID()): string {
  const key = storedKey(requested);
  const slash = key.lastIndexOf('/');
  // The name is shortened as every store can keep it (a local disk takes 255 bytes a name).
  return `${key.slice(0, slash)}/${id}/${safeFileName(key.slice(slash + 1))}`;
}

/**
 * The patient a file belongs to: note files live under <patientId>/notes/<noteId>/ (the folder the
 * note window uploads to) or patients/<patientId>/, so that folder names the patient when such a
 * patient exists.
 */
export async function patientOfKey(practiceId: string, key: string): Promise<string | undefined> {
  const [first = '', second = ''] = key.slice(FILES_PREFIX.length).split('/');
  const candidate = first === 'patients' ? second : first;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(candidate) || candidate === 'unassigned') return undefined;
  return (await getPatient(practiceId, candidate)) ? candidate : undefined;
}

/** POST /v1/s3/files {key, contentType, size?} → {signedUrl, key}: a presigned PUT to a new key, refused for blocked types and over 250,000,000 bytes. */
export async function presignUpload(auth: AuthContext, body: PresignUploadBody): Promise<{ signedUrl: string; key: string }> {
  const problem = uploadError(body.key, body.size);
  if (problem) throw new ValidationError(problem, { key: problem });
  // The signed PUT carries the size, so a drive upload cannot be larger than the size checked here.
  if (body.size === undefined && storedKey(body.key).startsWith(`${FILES_PREFIX}public/`))
    throw new ValidationError('The file size is required', { size: 'is required' });
  const key = newUploadKey(body.key);
  const signedUrl = await presignPut(key, body.contentType, body.size);
  const patientId = await patientOfKey(auth.practiceId, key);
  await writeAudit(auth, { action: 'create', entity: 'FILE', entityId: key, ...(patientId ? { patientId } : {}) });
  return { signedUrl, key };
}

/** GET /v1/s3/files?key= → {signedUrl, key}: a presigned GET for viewing or downloading. */
export async function presignDownload(auth: AuthContext, rawKey: string): Promise<{ signedUrl: string; key: string }> {
  const key = storedKey(rawKey);
  const signedUrl = await presignGet(key);
  const patientId = await patientOfKey(auth.practiceId, key);
  await writeAudit(auth, { action: 'read', entity: 'FILE', entityId: key, ...(patientId ? { patientId } : {}) });
  return { signedUrl, key };
}
