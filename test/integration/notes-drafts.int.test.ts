import { beforeAll, describe, expect, it } from 'vitest';
import { api, signIn } from '../support/local-stack.js';

let provider: string;
let patientId: string;
let employeeUserId: string;
const run = Date.now().toString(36);
const text = (t: string) => ({ text: t, formattedText: `<p>${t}</p>` });

interface N {
  notificationId: string;
  notificationStatus: string;
  notificationVersion: number;
  assigned: string | null;
  data: { noteId: string; patientId: string | null };
}

async function draftsOf(noteId: string, statuses?: string): Promise<N[]> {
  const res = await api(provider, 'GET', `/v1/notifications?notificationType=DRAFT&sourceId=${noteId}${statuses ? `&notificationStatus=${statuses}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.notifications;
}

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  const p = await api(provider, 'POST', '/v1/patients', { firstName: 'Dora', lastName: `Draftwell${run}`, gender: 'female', dob: '1985-04-04' });
  patientId = p.body.id;
  const users = await api(provider, 'GET', '/v1/practices/users');
  const list = (users.body.users ?? users.body.items ?? users.body) as { userId: string; emailAddress: string }[];
  employeeUserId = list.find((u) => u.emailAddress === 'employee@demo.tidewell.local')!.userId;
});

describe('draft notifications', () => {
  it('are created UNREAD on the first draft save, updated on later saves, COMPLETED on signing with extras deleted', async () => {
    const note = (await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId })).body;
    expect(await draftsOf(note.noteId)).toEqual([]);

    await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: text('first') });
    const [first] = await draftsOf(note.noteId);
    expect(first).toMatchObject({ notificationStatus: 'UNREAD', notificationVersion: 1, data: { noteId: note.noteId, patientId } });

    await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 2, data: text('second') });
    const afterSecond = await draftsOf(note.noteId);
    expect(afterSecond).toHaveLength(1);
    expect(afterSecond[0]).toMatchObject({ notificationId: first!.notificationId, notificationVersion: 2, notificationStatus: 'UNREAD' });

    // A duplicate left behind (e.g. by an older client) is cleaned up when the note is signed.
    const extra = await api(provider, 'POST', '/v1/notifications', {
      notificationType: 'DRAFT',
      sourceId: note.noteId,
      relatedTo: note.noteId,
      data: { noteId: note.noteId, patientId },
    });
    expect(extra.status).toBe(201);
    expect(await draftsOf(note.noteId)).toHaveLength(2);

    const signed = await api(provider, 'POST', `/v1/notes/${note.noteId}/sign`, { noteVersion: 3 });
    expect(signed.body.status).toBe('SIGNED');
    const closed = await draftsOf(note.noteId, 'COMPLETED,DELETED');
    const byId = Object.fromEntries(closed.map((n) => [n.notificationId, n.notificationStatus]));
    expect(byId).toEqual({ [first!.notificationId]: 'COMPLETED', [extra.body.notificationId]: 'DELETED' });
    expect(await draftsOf(note.noteId, 'UNREAD,UPDATED,READ')).toEqual([]);
  });

  it('assigning a draft creates or updates the DRAFT notification UNREAD for the chosen user', async () => {
    const note = (await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId, data: text('to review') })).body;
    const missing = await api(provider, 'POST', `/v1/notes/${note.noteId}/assign`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Please select a user to assign to.');
    const unknown = await api(provider, 'POST', `/v1/notes/${note.noteId}/assign`, { userId: 'nobody' });
    expect(unknown.status).toBe(404);

    const created = await api(provider, 'POST', `/v1/notes/${note.noteId}/assign`, { userId: employeeUserId });
    expect(created.status).toBe(200);
    expect(created.body.notification).toMatchObject({ notificationType: 'DRAFT', notificationStatus: 'UNREAD', assigned: employeeUserId });

    const read = await api(provider, 'PUT', `/v1/notifications/${created.body.notification.notificationId}`, { notificationStatus: 'READ' });
    expect(read.status).toBe(200);
    const me = (await api(provider, 'GET', '/v1/practices/users/me')).body;
    const reassigned = await api(provider, 'POST', `/v1/notes/${note.noteId}/assign`, { userId: me.userId ?? me.user?.userId });
    expect(reassigned.body.notification).toMatchObject({
      notificationId: created.body.notification.notificationId,
      notificationStatus: 'UNREAD',
      previouslyAssigned: employeeUserId,
    });
    expect(await draftsOf(note.noteId)).toHaveLength(1);

    await api(provider, 'POST', `/v1/notes/${note.noteId}/sign`, { noteVersion: 1 });
    const signedAssign = await api(provider, 'POST', `/v1/notes/${note.noteId}/assign`, { userId: employeeUserId });
    expect(signedAssign.body.message).toBe('Only a draft can be assigned.');
  });

  it('deleting a draft deletes its notification', async () => {
    const note = (await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId })).body;
    await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: text('scratch') });
    expect(await draftsOf(note.noteId)).toHaveLength(1);
    await api(provider, 'DELETE', `/v1/notes/${note.noteId}`);
    expect(await draftsOf(note.noteId)).toEqual([]);
    expect((await draftsOf(note.noteId, 'DELETED'))[0]).toMatchObject({ notificationStatus: 'DELETED' });
  });
});
