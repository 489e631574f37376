import { describe, expect, it } from 'vitest';
import { IMPORT_UPLOAD_MESSAGES, UPLOADED_FILE_EXTENSION, removeUploads, withUploadedFiles } from './import-uploads.js';

const uploaded = (key: string) => ({
  contentType: 'application/pdf',
  url: 'files/p1/0002-large.pdf',
  extension: [{ url: UPLOADED_FILE_EXTENSION, valueString: key }],
});
const KEY = 'protected/fhir-imports/u1/0002-large.pdf';

describe('a practice import bundle naming uploaded files', () => {
  it('reads each uploaded file once into the attachments that name it and lists the keys to remove', async () => {
    const reads: string[] = [];
    const read = async (key: string) => {
      reads.push(key);
      return new TextEncoder().encode('%PDF large');
    };
    const entries = [
      { resource: { resourceType: 'Patient', id: 'p1' } },
      { resource: { resourceType: 'DocumentReference', id: 'd1', content: [{ attachment: uploaded(KEY) }] } },
      { resource: { resourceType: 'Communication', id: 'c1', payload: [{ contentAttachment: uploaded(KEY) }, { contentString: 'hi' }] } },
    ];
    const { entries: out, keys } = await withUploadedFiles(entries, read);
    expect(reads).toEqual([KEY]);
    expect(keys).toEqual([KEY]);
    const doc = out![1]!.resource as { content: { attachment: Record<string, unknown> }[] };
    expect(doc.content[0]!.attachment).toEqual({
      contentType: 'application/pdf',
      url: 'files/p1/0002-large.pdf',
      data: Buffer.from('%PDF large').toString('base64'),
    });
    expect((out![2]!.resource as { payload: { contentAttachment?: { data: string } }[] }).payload[0]!.contentAttachment!.data).toBe(
      Buffer.from('%PDF large').toString('base64'),
    );
    expect(out![0]).toBe(entries[0]);
    // The request's own bundle is left as it came.
    expect(entries[1]!.resource.content![0]!.attachment).toHaveProperty('extension');
  });

  it('refuses a key outside the import uploads folder, and says so when an upload is gone', async () => {
    const entry = (key: string) => [{ resource: { resourceType: 'DocumentReference', content: [{ attachment: uploaded(key) }] } }];
    await expect(withUploadedFiles(entry('protected/patients/p9/secret.pdf'), async () => new Uint8Array())).rejects.toThrow(IMPORT_UPLOAD_MESSAGES.badKey);
    await expect(withUploadedFiles(entry('protected/fhir-imports/../patients/x.pdf'), async () => new Uint8Array())).rejects.toThrow();
    const gone = Object.assign(new Error('NoSuchKey'), { status: 404 });
    await expect(withUploadedFiles(entry(KEY), async () => Promise.reject(gone))).rejects.toThrow(IMPORT_UPLOAD_MESSAGES.gone);
  });

  it('removes every upload, one failed removal not stopping the others', async () => {
    const removed: string[] = [];
    await removeUploads(['a', 'b'], async (k) => {
      if (k === 'a') throw new Error('denied');
      removed.push(k);
    });
    expect(removed).toEqual(['b']);
  });
});
