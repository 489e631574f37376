import * as z from '../zod.js';
import { LIMITS } from '../limits.js';

// Apart from the note schemas, which the files function would otherwise build on a cold start for this one body.
/** POST /v1/s3/files */
export const PresignUploadBody = z.object({
  key: z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.fileKey)),
  contentType: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  size: z.optional(z.number().check(z.int(), z.nonnegative())),
});
export type PresignUploadBody = z.infer<typeof PresignUploadBody>;
