import { beforeAll, describe, expect, it } from 'vitest';
import { api, signIn, stackOutputs } from '../support/local-stack.js';

let provider: string;
const run = Date.now().toString(36);

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
});

describe('document attachments through presigned upload', () => {
  it('presigns a PUT under the access-level prefix, uploads, attaches to a DOCUMENT note and reads it back', async () => {
    const p = await api(provider, 'POST', '/v1/patients', { firstName: 'Fay', lastName: `Filewell${run}`, gender: 'female', dob: '1970-02-02' });
    const patientId = p.body.id as string;
    const presign = await api(provider, 'POST', '/v1/s3/files', {
      key: `patients/${patientId}/documents/lab-${run}.pdf`,
      contentType: 'application/pdf',
      size: 11,
    });
    expect(presign.status).toBe(200);
    expect(presign.body.key).toMatch(new RegExp(`^protected/patients/${patientId}/documents/[0-9a-f-]{36}/lab-${run}\\.pdf$`));
    const put = await fetch(presign.body.signedUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', origin: stackOutputs().webUrl },
      body: '%PDF-1.4 hi',
    });
    expect(put.status).toBe(200);

    const doc = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'DOCUMENT', patientId });
    const saved = await api(provider, 'POST', `/v1/notes/${doc.body.noteId}/sign`, {
      noteVersion: 1,
      data: { text: 'Outside lab report', formattedText: '<p>Outside lab report</p>' },
      files: [{ key: presign.body.key, name: `lab-${run}.pdf`, contentType: 'application/pdf', size: 11 }],
    });
    expect(saved.body).toMatchObject({ status: 'SIGNED', files: [{ key: presign.body.key }] });

    const download = await api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(presign.body.key)}`);
    const got = await fetch(download.body.signedUrl);
    expect(await got.text()).toBe('%PDF-1.4 hi');
  });

  it('refuses blocked and unknown formats and files over 250,000,000 bytes with the spec messages', async () => {
    for (const key of ['a/run.exe', 'a/page.html', 'a/logo.svg', 'a/macro.docm', 'a/thing.qqq', 'a/noext']) {
      const res = await api(provider, 'POST', '/v1/s3/files', { key, contentType: 'application/octet-stream' });
      expect(res.status, key).toBe(400);
      expect(res.body.message).toBe('This file is not a supported file format');
    }
    const big = await api(provider, 'POST', '/v1/s3/files', { key: 'a/scan.pdf', contentType: 'application/pdf', size: 250_000_001 });
    expect(big.body.message).toBe('This file is too large');
    const atLimit = await api(provider, 'POST', '/v1/s3/files', { key: 'a/scan.pdf', contentType: 'application/pdf', size: 250_000_000 });
    expect(atLimit.status).toBe(200);
    const escape = await api(provider, 'POST', '/v1/s3/files', { key: 'a/../../etc/scan.pdf', contentType: 'application/pdf' });
    expect(escape.status).toBe(400);
  });
});
