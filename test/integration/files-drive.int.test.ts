import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, practiceAuditEntries, signIn, stackOutputs } from '../support/local-stack.js';

/**
 * The practice drive (spec chart-data §2b, §5, §7 Files): folders under public/, uploads by
 * presigned PUT to the current folder, listing by ?prefix=, delete by ?key= (files only).
 */
let provider: string;
let employee: string;
const run = Date.now().toString(36);
const root = `public/drive-${run}/`;

async function upload(token: string, folder: string, name: string, body: string, contentType = 'text/plain') {
  const bytes = new TextEncoder().encode(body);
  const presign = await api(token, 'POST', '/v1/s3/files', { key: `${folder}${name}`, contentType, size: bytes.length });
  expect(presign.status, JSON.stringify(presign.body)).toBe(200);
  const put = await fetch(presign.body.signedUrl as string, {
    method: 'PUT',
    headers: { 'content-type': contentType, origin: stackOutputs().webUrl },
    body: bytes,
  });
  expect(put.status).toBe(200);
  return presign.body.key as string;
}

const list = (token: string | null, prefix: string) => api(token, 'GET', `/v1/s3/files?prefix=${encodeURIComponent(prefix)}`);

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  employee = await createTestUser({ email: `drive-employee-${run}@demo.tidewell.local`, group: 'employee' });
});

describe('the practice drive', () => {
  it('creates folders, uploads into the current folder and lists folders and files of that folder only', async () => {
    const made = await api(provider, 'POST', '/v1/s3/folders', { path: 'public/', name: `drive-${run}` });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({ prefix: root });
    expect((await api(provider, 'POST', '/v1/s3/folders', { path: root, name: 'Scans' })).body).toEqual({ prefix: `${root}Scans/` });
    expect((await api(provider, 'POST', '/v1/s3/folders', { path: root, name: 'Empty' })).status).toBe(200);

    const csv = await upload(provider, root, 'labs.csv', 'a,b\n1,2\n', 'text/csv');
    expect(csv).toMatch(new RegExp(`^protected/${root}[0-9a-f-]{36}/labs\\.csv$`));
    const scan = await upload(employee, `${root}Scans/`, 'scan.pdf', '%PDF-1.4 scan', 'application/pdf');

    const top = await list(provider, root);
    expect(top.status).toBe(200);
    expect(top.body).toMatchObject({ prefix: root, folders: ['Empty', 'Scans'], files: [{ key: csv, name: 'labs.csv', size: 8 }] });
    const scans = await list(employee, `${root}Scans`);
    expect(scans.body).toMatchObject({ prefix: `${root}Scans/`, folders: [], files: [{ key: scan, name: 'scan.pdf', size: 13 }] });
    expect((await list(provider, `${root}Empty/`)).body).toMatchObject({ folders: [], files: [] });

    // The same name twice is two files: an upload never lands on a key someone already uploaded to.
    const again = await upload(provider, root, 'labs.csv', 'c,d\n', 'text/csv');
    expect(again).not.toBe(csv);
    expect((await list(provider, root)).body.files.map((f: { name: string }) => f.name)).toEqual(['labs.csv', 'labs.csv']);

    const read = await api(provider, 'GET', `/v1/s3/files?key=${encodeURIComponent(csv)}`);
    expect(await (await fetch(read.body.signedUrl as string)).text()).toBe('a,b\n1,2\n');
  });

  it('refuses an empty or invalid folder name and a folder outside public/', async () => {
    for (const name of ['', '   ']) {
      const res = await api(provider, 'POST', '/v1/s3/folders', { path: 'public/', name });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Folder name is required');
    }
    for (const name of ['a/b', '..', '.', 'x'.repeat(101)])
      expect((await api(provider, 'POST', '/v1/s3/folders', { path: 'public/', name })).status, name).toBe(400);
    for (const path of ['private/', 'public/../x/', 'public//', 'patients/pat-0001/']) {
      expect((await api(provider, 'POST', '/v1/s3/folders', { path, name: 'x' })).status, path).toBe(400);
      expect((await list(provider, path)).status, path).toBe(400);
    }
    expect((await api(provider, 'GET', '/v1/s3/files')).status).toBe(400);
  });

  it('checks the allow list, the block list and the 250,000,000-byte limit on the server, and needs the size for a drive upload', async () => {
    for (const name of ['tool.exe', 'run.sh', 'page.html', 'logo.svg', 'macro.xlsm', 'old.doc', 'thing.qqq', 'noext']) {
      const res = await api(provider, 'POST', '/v1/s3/files', { key: `${root}${name}`, contentType: 'application/octet-stream', size: 10 });
      expect(res.status, name).toBe(400);
      expect(res.body.message).toBe('This file is not a supported file format');
    }
    for (const name of ['a.pdf', 'b.csv', 'c.xlsx', 'd.docx', 'e.heic', 'f.jpg', 'g.wav', 'h.webm', 'i.xml', 'j.ics', 'k.mp4', 'l.mp3']) {
      expect((await api(provider, 'POST', '/v1/s3/files', { key: `${root}${name}`, contentType: 'application/octet-stream', size: 10 })).status, name).toBe(
        200,
      );
    }
    const big = await api(provider, 'POST', '/v1/s3/files', { key: `${root}scan.pdf`, contentType: 'application/pdf', size: 250_000_001 });
    expect(big.status).toBe(400);
    expect(big.body.message).toBe('This file is too large');
    expect((await api(provider, 'POST', '/v1/s3/files', { key: `${root}scan.pdf`, contentType: 'application/pdf', size: 250_000_000 })).status).toBe(200);
    const noSize = await api(provider, 'POST', '/v1/s3/files', { key: `${root}scan.pdf`, contentType: 'application/pdf' });
    expect(noSize.status).toBe(400);
  });

  it('deletes a file, refuses folders with "Unable to delete folders." and leaves non-drive files alone', async () => {
    const folder = `${root}del/`;
    await api(provider, 'POST', '/v1/s3/folders', { path: root, name: 'del' });
    const key = await upload(employee, folder, 'note.txt', 'bye');
    const gone = await api(employee, 'DELETE', `/v1/s3/files?key=${encodeURIComponent(key)}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ key, deleted: true });
    expect((await list(provider, folder)).body.files).toEqual([]);
    expect((await api(employee, 'DELETE', `/v1/s3/files?key=${encodeURIComponent(key)}`)).status).toBe(404);

    for (const target of [folder, `protected/${folder}`, `protected/${root}del`, `${root}Scans`]) {
      const res = await api(provider, 'DELETE', `/v1/s3/files?key=${encodeURIComponent(target)}`);
      expect(res.status, target).toBe(400);
      expect(res.body.message).toBe('Unable to delete folders.');
    }
    const attachment = await api(provider, 'POST', '/v1/s3/files', {
      key: `patients/pat-0001/documents/x-${run}.pdf`,
      contentType: 'application/pdf',
      size: 3,
    });
    expect((await api(provider, 'DELETE', `/v1/s3/files?key=${encodeURIComponent(attachment.body.key as string)}`)).status).toBe(400);
    expect((await api(provider, 'DELETE', `/v1/s3/files?key=${encodeURIComponent(`${root}../../x.txt`)}`)).status).toBe(400);
  });

  it('audits listing, folder creation, upload and delete; refuses no_access, another practice and no token', async () => {
    const email = `drive-audit-${run}@demo.tidewell.local`;
    const token = await createTestUser({ email, group: 'admin' });
    await list(token, root);
    await api(token, 'POST', '/v1/s3/folders', { path: root, name: 'audited' });
    const key = await upload(token, `${root}audited/`, 'a.txt', 'x');
    await api(token, 'DELETE', `/v1/s3/files?key=${encodeURIComponent(key)}`);
    const found = await practiceAuditEntries({ FilterExpression: 'actorEmail = :e', ExpressionAttributeValues: { ':e': email } });
    const entries = found.map((e) => `${e.action} ${e.entity} ${e.entityId}`).sort();
    expect(entries).toEqual([`create FILE ${key}`, `create FILE protected/${root}audited/`, `delete FILE ${key}`, `list FILE protected/${root}`].sort());

    const noAccess = await signIn('noaccess@demo.tidewell.local');
    const foreign = await createTestUser({ email: `drive-foreign-${run}@other.test`, group: 'admin', practiceId: 'prc_other_practice' });
    for (const token of [noAccess, foreign]) {
      expect((await list(token, root)).status).toBe(403);
      expect((await api(token, 'POST', '/v1/s3/folders', { path: root, name: 'x' })).status).toBe(403);
      expect((await api(token, 'DELETE', `/v1/s3/files?key=${encodeURIComponent(`${root}x.txt`)}`)).status).toBe(403);
    }
    expect((await list(null, root)).status).toBe(401);
  });
});
