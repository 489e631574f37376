/**
 * A practice import's large files: the CLI (`npm run practice -- import`) sends a file bigger than a
 * request can carry through the app's presigned upload, and the patient's bundle names the stored
 * key in an extension of the attachment instead of carrying its bytes. Here those bytes are read
 * back into the attachment (as if carried) before the chart import reads the bundle, and the
 * uploads are removed once the chart holds its own copy.
 */
import { ValidationError } from '../../../lib/errors.js';
import { deleteObject, readObject } from '../../../lib/files/file-store.js';
import { FILES_PREFIX, storedKey } from '../../../lib/files/presign.js';
import { IMPORT_UPLOAD_FOLDER, UPLOADED_FILE_EXTENSION } from '../../../../shared/fhir/practice-import/uploads.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export { IMPORT_UPLOAD_FOLDER, UPLOADED_FILE_EXTENSION } from '../../../../shared/fhir/practice-import/uploads.js';

export const IMPORT_UPLOAD_MESSAGES = {
  badKey: "An uploaded file of the bundle is not one of the import's uploads",
  gone: 'An uploaded file of the bundle is no longer in storage: run the import again to upload it again',
} as const;

function uploadedKey(a: Json): string | undefined {
  const x = ((a.extension as Json[] | undefined) ?? []).find((e) => e?.url === UPLOADED_FILE_EXTENSION);
  if (!x) return undefined;
  const key = typeof x.valueString === 'string' ? storedKey(x.valueString) : '';
  if (!key.startsWith(`${FILES_PREFIX}${IMPORT_UPLOAD_FOLDER}/`)) throw new ValidationError(IMPORT_UPLOAD_MESSAGES.badKey);
  return key;
}

/** Attachments of a resource: a document's content and a communication's payload (a call's recording, a fax's pages). */
function attachmentsOf(r: Json): Json[] {
  const content = ((r.content as Json[] | undefined) ?? []).map((c) => c?.attachment as Json | undefined);
  const payload = Array.isArray(r.payload) ? (r.payload as Json[]).map((p) => p?.contentAttachment as Json | undefined) : [];
  return [...content, ...payload].filter((a): a is Json => Boolean(a && typeof a === 'object'));
}

/**
 * The bundle's entries with each uploaded file's bytes in its attachment's `data` (the extension
 * removed), and the keys read, to be removed after the import. The entries given are not changed.
 */
export async function withUploadedFiles<E extends { resource: Record<string, unknown> }>(
  entries: E[] | undefined,
  read: (key: string) => Promise<Uint8Array> = readObject,
): Promise<{ entries: E[] | undefined; keys: string[] }> {
  if (!entries) return { entries, keys: [] };
  const bytes = new Map<string, string>();
  const out: E[] = [];
  for (const e of entries) {
    const r = e.resource as Json;
    if (!attachmentsOf(r).some((a) => uploadedKey(a))) {
      out.push(e);
      continue;
    }
    const hydrate = async (a: Json | undefined): Promise<Json | undefined> => {
      const key = a && uploadedKey(a);
      if (!a || !key) return a;
      if (!bytes.has(key)) {
        try {
          bytes.set(key, Buffer.from(await read(key)).toString('base64'));
        } catch (error) {
          if ((error as { status?: number }).status === 404 || (error as { name?: string }).name === 'NoSuchKey')
            throw new ValidationError(IMPORT_UPLOAD_MESSAGES.gone);
          throw error;
        }
      }
      const extension = ((a.extension as Json[] | undefined) ?? []).filter((x) => x?.url !== UPLOADED_FILE_EXTENSION);
      const { extension: _dropped, ...rest } = a;
      return { ...rest, ...(extension.length ? { extension } : {}), data: bytes.get(key) };
    };
    const resource: Json = { ...r };
    if (Array.isArray(r.content))
      resource.content = await Promise.all(
        (r.content as Json[]).map(async (c) => (c?.attachment ? { ...c, attachment: await hydrate(c.attachment as Json) } : c)),
      );
    if (Array.isArray(r.payload))
      resource.payload = await Promise.all(
        (r.payload as Json[]).map(async (p) => (p?.contentAttachment ? { ...p, contentAttachment: await hydrate(p.contentAttachment as Json) } : p)),
      );
    out.push({ ...e, resource });
  }
  return { entries: out, keys: [...bytes.keys()] };
}

/** The uploads, once the chart holds its copy of their bytes (a failed removal leaves a file the next run's import does not need). */
export async function removeUploads(keys: string[], remove: (key: string) => Promise<void> = deleteObject): Promise<void> {
  await Promise.allSettled(keys.map((k) => remove(k)));
}
