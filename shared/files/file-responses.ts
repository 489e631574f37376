// What the file endpoints answer, read by the web client. Kept apart from drive.ts so the Lambdas
// that only need the types or the drive's rules do not bundle these schemas.
import * as z from '../zod.js';

export const DriveFile = z.object({
  /** The stored key (protected/public/.../<id>/<name>) the file is read and deleted by. */
  key: z.string(),
  name: z.string(),
  size: z.number(),
  lastModified: z.string(),
});
export type DriveFile = z.infer<typeof DriveFile>;

export const DriveListing = z.object({ prefix: z.string(), folders: z.array(z.string()), files: z.array(DriveFile) });
export type DriveListing = z.infer<typeof DriveListing>;

/** POST /v1/s3/folders: the new folder's path. */
export const DriveFolderCreated = z.object({ prefix: z.string() });
/** DELETE /v1/s3/files. */
export const DriveFileDeleted = z.object({ key: z.string(), deleted: z.literal(true) });

/** GET /v1/s3/files?key= (a presigned GET) and POST /v1/s3/files (a presigned PUT to a new key). */
export const SignedFileUrl = z.object({ signedUrl: z.string(), key: z.string() });
