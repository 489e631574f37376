/**
 * Practice drive files sent as a text's attachments (spec chart-data §2b: the picker 'Select
 * Practice Files in the Cloud' used by messages). Loaded with `import()` only when a text names a
 * drive file, so the messaging function's cold start does not carry it.
 */
import type { SmsAttachment } from '../../../shared/messaging/messaging-schema.js';
import { s3ObjectsFromEnv } from '../../lib/adapters/s3-objects.js';

/** Drive files live under protected/public/ (functions/files/presign.ts FILES_PREFIX + DRIVE_ROOT). */
export const DRIVE_KEY_PREFIX = 'protected/public/';

export const isDriveKey = (key: string) => key.startsWith(DRIVE_KEY_PREFIX);

/**
 * A sent text is a record of what the patient received: each drive file is copied beside the
 * text's own uploads, so deleting or replacing it in the drive later leaves the text, and the
 * carrier's fetch of the media, unchanged. The copy's key is fixed by the note id, so a second run
 * of the same scheduled send writes the same object again rather than another one.
 */
export async function copyDriveAttachments(files: readonly SmsAttachment[], folder: string, noteId: string): Promise<SmsAttachment[]> {
  const bucket = process.env.FILES_BUCKET ?? '';
  const s3 = s3ObjectsFromEnv();
  return Promise.all(
    files.map(async (file, index) => {
      if (!isDriveKey(file.key)) return file;
      const name = file.key.slice(file.key.lastIndexOf('/') + 1);
      const key = `protected/${folder}/${noteId}/${index}/${name}`;
      const bytes = await s3.getObject({ bucket, key: file.key });
      await s3.putObject({ bucket, key }, bytes, { contentType: file.contentType });
      return { ...file, key };
    }),
  );
}
