import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedFileUrl } from '../../../shared/files/file-responses.js';

const apiRequest = vi.fn();
vi.mock('./api-client.js', () => ({ apiRequest: (...args: unknown[]) => apiRequest(...args) }));

const { uploadFile } = await import('./upload-file.js');

afterEach(() => {
  apiRequest.mockReset();
  vi.unstubAllGlobals();
});

function stubPut(status = 200) {
  const put = vi.fn(async () => new Response(null, { status }));
  vi.stubGlobal('fetch', put);
  return put;
}

describe('uploadFile', () => {
  it('asks for a signed PUT under the folder with a name that needs no escaping, then PUTs the bytes there', async () => {
    apiRequest.mockResolvedValue({ signedUrl: 'https://bucket.example/put?sig=1', key: 'protected/patients/p1/sms/u1/Lab_results_M_ller_.pdf' });
    const put = stubPut();
    const file = new File(['%PDF'], 'Lab results (Müller).pdf', { type: 'application/pdf' });

    const uploaded = await uploadFile(file, 'patients/p1/sms');

    expect(apiRequest).toHaveBeenCalledWith(
      {
        method: 'POST',
        path: '/v1/s3/files',
        body: { key: 'patients/p1/sms/Lab_results_M_ller_.pdf', contentType: 'application/pdf', size: 4 },
      },
      SignedFileUrl,
    );
    expect(put).toHaveBeenCalledWith('https://bucket.example/put?sig=1', { method: 'PUT', body: file, headers: { 'Content-Type': 'application/pdf' } });
    expect(uploaded).toEqual({
      key: 'protected/patients/p1/sms/u1/Lab_results_M_ller_.pdf',
      name: 'Lab results (Müller).pdf',
      contentType: 'application/pdf',
      size: 4,
    });
  });

  it("takes a drive folder's trailing slash, a path inside the name and a type from the extension", async () => {
    apiRequest.mockResolvedValue({ signedUrl: 'https://bucket.example/put', key: 'k' });
    stubPut();

    await uploadFile(new File(['x'], 'a/b\\c.heic'), 'public/scans/');

    expect(apiRequest.mock.calls[0]![0].body).toEqual({ key: 'public/scans/a_b_c.heic', contentType: 'image/heic', size: 1 });
  });

  it('fails when the bucket refuses the bytes', async () => {
    apiRequest.mockResolvedValue({ signedUrl: 'https://bucket.example/put', key: 'k' });
    stubPut(403);
    await expect(uploadFile(new File(['x'], 'a.pdf'), 'notes')).rejects.toThrow('Upload failed (403)');
  });
});
