import { beforeAll, describe, expect, it } from 'vitest';
import { api, signIn } from '../support/local-stack.js';

/*
 * Findings of the integrity review, one block each: files are never overwritten, reminders and
 * signed notes belong to their owners, and every access to a patient's data is in the patient's
 * access history (who, when, what, from where), which admins read in the product.
 */
let admin: string;
let provider: string;
let employee: string;
let pob: string;
let providerId: string;
const run = Date.now().toString(36);

beforeAll(async () => {
  [admin, provider, employee, pob] = await Promise.all(['admin', 'provider', 'employee', 'pob'].map((u) => signIn(`${u}@demo.tidewell.local`)));
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
});

async function upload(token: string, key: string, bytes: string) {
  const presign = await api(token, 'POST', '/v1/s3/files', { key, contentType: 'application/pdf', size: bytes.length });
  expect(presign.status).toBe(200);
  const put = await fetch(presign.body.signedUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
  expect(put.status).toBe(200);
  return presign.body.key as string;
}

async function download(token: string, key: string): Promise<string> {
  const res = await api(token, 'GET', `/v1/s3/files?key=${encodeURIComponent(key)}`);
  return (await fetch(res.body.signedUrl)).text();
}

async function history(token: string, patientId: string) {
  return api(token, 'GET', `/v1/patients/${patientId}/access-history?limit=500`);
}

describe('files are never overwritten', () => {
  it('gives every upload a new key, even one naming a key another user uploaded to', async () => {
    const folder = `pat-0006/notes/n-${run}`;
    const first = await upload(provider, `${folder}/scan.pdf`, '%PDF first');
    const second = await upload(employee, `${folder}/scan.pdf`, '%PDF second');
    expect(second).not.toBe(first);
    // Naming the stored key itself still gets a fresh key.
    const third = await upload(employee, first, '%PDF third');
    expect(third).not.toBe(first);
    expect(await download(provider, first)).toBe('%PDF first');
    expect(await download(provider, second)).toBe('%PDF second');
    expect(third.endsWith('/scan.pdf')).toBe(true);
  });
});

describe('reminders belong to their assignee', () => {
  it("answers 404 to another user's change or delete, and keeps the reminder", async () => {
    const dueAt = new Date(Date.now() + 3_600_000).toISOString();
    const mine = await api(provider, 'POST', '/v1/reminders', { text: `Call lab ${run}`, dueAt });
    expect(mine.status).toBe(201);
    const id = mine.body.reminderId;
    for (const token of [employee, admin]) {
      const change = await api(token, 'PUT', `/v1/reminders/${id}`, { text: 'taken over' });
      expect(change.status).toBe(404);
      expect((await api(token, 'DELETE', `/v1/reminders/${id}`)).status).toBe(404);
    }
    const list = await api(provider, 'GET', '/v1/reminders');
    expect(list.body.reminders.find((r: { reminderId: string }) => r.reminderId === id)).toMatchObject({ text: `Call lab ${run}` });
    expect((await api(provider, 'PUT', `/v1/reminders/${id}`, { text: 'moved' })).status).toBe(200);
    expect((await api(provider, 'DELETE', `/v1/reminders/${id}`)).status).toBe(200);
  });
});

describe('signed notes are changed and deleted only by their author, the prescriber on whose behalf, or an admin', () => {
  async function signedNote(token: string, extra: object = {}) {
    const draft = await api(token, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId: 'pat-0006', ...extra });
    expect(draft.status).toBe(201);
    const signed = await api(token, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: 1, data: { text: 'Plan', formattedText: '<p>Plan</p>' } });
    expect(signed.status).toBe(200);
    return signed.body as { noteId: string; noteVersion: number };
  }

  it('refuses a StaffUser employee and the POB employee, allows the author', async () => {
    const note = await signedNote(provider);
    for (const token of [employee, pob]) {
      const rewrite = await api(token, 'POST', `/v1/notes/${note.noteId}/update-signed-note`, {
        noteVersion: note.noteVersion,
        text: 'x',
        formattedText: '<p>x</p>',
      });
      expect(rewrite.status).toBe(403);
      expect((await api(token, 'DELETE', `/v1/notes/${note.noteId}`)).status).toBe(403);
    }
    const byAuthor = await api(provider, 'POST', `/v1/notes/${note.noteId}/update-signed-note`, {
      noteVersion: note.noteVersion,
      text: 'Plan B',
      formattedText: '<p>Plan B</p>',
    });
    expect(byAuthor.status).toBe(200);
  });

  it('allows the prescriber the note was written on behalf of', async () => {
    const note = await signedNote(employee, { onBehalfOf: providerId });
    // Signing makes the signer the author; the prescriber named on the note may still change it.
    const byPrescriber = await api(provider, 'POST', `/v1/notes/${note.noteId}/update-signed-note`, {
      noteVersion: note.noteVersion,
      text: 'Reviewed',
      formattedText: '<p>Reviewed</p>',
    });
    expect(byPrescriber.status).toBe(200);
  });

  it('keeps a deleted note recoverable: an admin restores it with its audit, others may not', async () => {
    const note = await signedNote(provider);
    expect((await api(admin, 'DELETE', `/v1/notes/${note.noteId}`)).status).toBe(200);
    expect((await api(provider, 'GET', `/v1/notes/${note.noteId}`)).status).toBe(404);
    expect((await api(provider, 'POST', `/v1/notes/${note.noteId}/restore`)).status).toBe(403);
    const restored = await api(admin, 'POST', `/v1/notes/${note.noteId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ status: 'SIGNED', data: { text: 'Plan' } });
    expect((await api(admin, 'POST', `/v1/notes/${note.noteId}/restore`)).status).toBe(409);
    const entries = (await history(admin, 'pat-0006')).body.entries as { entity: string; entityId?: string; action: string }[];
    const actions = entries.filter((e) => e.entity === 'NOTE' && e.entityId === note.noteId).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['delete', 'restore']));
  });
});

describe('the audit trail names the patient and where the access came from', () => {
  it('records template links, files, lists and notifications under the patient, with source and browser', async () => {
    const patientId = 'pat-0007';
    const template = await api(provider, 'POST', '/v1/practices/templates', { templateName: `Link ${run}`, shortcut: `lk${run}`, body: 'Hello' });
    const note = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId });
    expect((await api(provider, 'POST', '/v1/template-links', { templateId: template.body.templateId, interactionId: note.body.noteId })).status).toBe(201);
    const key = await upload(provider, `${patientId}/notes/${note.body.noteId}/lab.pdf`, '%PDF lab');
    await download(provider, key);
    const created = await api(provider, 'POST', '/v1/notifications', { notificationType: 'TASK', text: `Follow up ${run}`, patientId });
    expect(created.status).toBe(201);
    expect((await api(provider, 'GET', '/v1/notifications?notificationType=TASK')).status).toBe(200);

    const page = await history(admin, patientId);
    expect(page.status).toBe(200);
    const entries = page.body.entries as {
      entity: string;
      action: string;
      entityId?: string;
      sourceIp?: string;
      userAgent?: string;
      actor: { email: string };
    }[];
    const has = (entity: string, action: string) =>
      entries.some((e) => e.entity === entity && e.action === action && e.actor.email === 'provider@demo.tidewell.local');
    expect(has('TEMPLATE_LINK', 'create')).toBe(true);
    expect(has('FILE', 'create')).toBe(true);
    expect(has('FILE', 'read')).toBe(true);
    expect(has('notification', 'create')).toBe(true);
    expect(has('notification', 'list')).toBe(true);
    const link = entries.find((e) => e.entity === 'TEMPLATE_LINK')!;
    expect(link.sourceIp).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(link.userAgent).toBeTruthy();
    // Newest first.
    const times = entries.map((e) => (e as unknown as { at: string }).at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('lets only admins read the access history', async () => {
    expect((await history(provider, 'pat-0007')).status).toBe(403);
    expect((await history(employee, 'pat-0007')).status).toBe(403);
    expect((await history(admin, 'pat-nope')).status).toBe(404);
  });
});
