import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_OUTBOX_PREFIX } from '../../functions/lib/adapters/email.js';
import { NOTE_MESSAGES } from '../../shared/notes/note-constants.js';
import { api, patientAuditTrail, signIn, stackEndpoints, tableClient } from '../support/local-stack.js';

let provider: string;
let employee: string;
let patientId: string;
let otherPatientId: string;
let childId: string;
const run = Date.now().toString(36);

async function newPatient(firstName: string, dob: string, email?: string): Promise<string> {
  const res = await api(provider, 'POST', '/v1/patients', { firstName, lastName: `Notewell${run}`, gender: 'female', dob, ...(email ? { email } : {}) });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function create(body: Record<string, unknown>) {
  const res = await api(provider, 'POST', '/v2/notes', { noteId: 'new', ...body });
  expect(res.status).toBe(201);
  return res.body;
}

const text = (t: string) => ({ text: t, formattedText: `<p>${t}</p>` });

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  employee = await signIn('employee@demo.tidewell.local');
  patientId = await newPatient('Nora', '1980-03-02', `nora.${run}@example.test`);
  otherPatientId = await newPatient('Olive', '1975-07-09', `olive.${run}@example.test`);
  childId = await newPatient('Kit', '2019-01-15');
});

/** The audit trail of one patient's chart, filtered to one note. */
async function auditsFor(pid: string, noteId: string): Promise<string[]> {
  return (await patientAuditTrail(pid)).filter((i) => i.entityId === noteId).map((i) => String(i.action));
}

async function outbox(subject: string) {
  const { client, tableName } = tableClient();
  const out = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :o)',
      FilterExpression: 'subject = :s',
      ExpressionAttributeValues: { ':p': stackEndpoints().practiceId, ':o': EMAIL_OUTBOX_PREFIX, ':s': subject },
    }),
  );
  return out.Items ?? [];
}

describe('note lifecycle', () => {
  it('creates a draft with a generated id, saves it as a draft, signs it, then refuses plain edits', async () => {
    const created = await create({ noteType: 'NOTE', patientId, data: text('Chief complaint: cough') });
    expect(created).toMatchObject({ noteType: 'NOTE', status: 'DRAFT', signed: null, noteVersion: 1, patientId, hidden: false });
    expect(created.noteId).toMatch(/^[0-9a-f-]{36}$/);
    // The local ID token has no given/family name: the name comes from the practice's user record.
    expect(created.author).toMatchObject({ name: 'Daniel Okafor', email: 'provider@demo.tidewell.local' });

    const saved = await api(provider, 'POST', `/v1/notes/${created.noteId}`, { noteVersion: 1, data: text('Cough for 3 days') });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ status: 'DRAFT', noteVersion: 2, data: { text: 'Cough for 3 days' } });

    const signed = await api(employee, 'POST', `/v1/notes/${created.noteId}/sign`, { noteVersion: 2 });
    expect(signed.status).toBe(200);
    expect(signed.body.status).toBe('SIGNED');
    expect(Date.parse(signed.body.signed)).toBeGreaterThan(Date.now() - 60_000);
    expect(signed.body.author).toMatchObject({ name: 'Jordan Ellis', email: 'employee@demo.tidewell.local' });
    expect(signed.body.signedBy.name).toBe('Jordan Ellis');

    const edit = await api(provider, 'POST', `/v1/notes/${created.noteId}`, { noteVersion: 3, data: text('changed') });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toBe('A signed note can only be changed by an addendum or by updating the signed text.');
    const again = await api(provider, 'POST', `/v1/notes/${created.noteId}/sign`, { noteVersion: 3 });
    expect(again.body.message).toBe('This note is already signed.');

    // Only the author (the signer), the prescriber on whose behalf, or an admin updates the signed text.
    expect((await api(provider, 'POST', `/v1/notes/${created.noteId}/update-signed-note`, { noteVersion: 3, ...text('x') })).status).toBe(403);
    const updated = await api(employee, 'POST', `/v1/notes/${created.noteId}/update-signed-note`, { noteVersion: 3, ...text('Cough for 4 days') });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ status: 'SIGNED', noteVersion: 4, data: { text: 'Cough for 4 days', formattedText: '<p>Cough for 4 days</p>' } });

    const addended = await api(provider, 'POST', `/v1/notes/${created.noteId}/addend`, { noteVersion: 4, ...text('Follow up in 1 week') });
    expect(addended.status).toBe(200);
    expect(addended.body.status).toBe('ADDENDED');
    expect(addended.body.data.addenda).toEqual([
      expect.objectContaining({
        text: 'Follow up in 1 week',
        author: expect.objectContaining({ name: 'Daniel Okafor', email: 'provider@demo.tidewell.local' }),
      }),
    ]);
    expect(addended.body.data.text).toBe('Cough for 4 days');

    const got = await api(provider, 'GET', `/v1/notes/${created.noteId}`);
    expect(got.body).toEqual(addended.body);
    const audits = await auditsFor(patientId, created.noteId);
    expect(audits).toEqual(expect.arrayContaining(['create', 'update', 'read']));
    expect(audits.length).toBe(6);
  });

  it("refuses an addendum on an unsigned note with 'Cannot addend unsigned note'", async () => {
    const note = await create({ noteType: 'NOTE', patientId, data: text('draft') });
    const res = await api(provider, 'POST', `/v1/notes/${note.noteId}/addend`, { noteVersion: 1, ...text('more') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Cannot addend unsigned note');
    const upd = await api(provider, 'POST', `/v1/notes/${note.noteId}/update-signed-note`, { noteVersion: 1, ...text('x') });
    expect(upd.body.message).toBe('Only a signed note can have its signed text updated.');
  });

  it('blocks save and sign while a wildcard remains, and refuses no patient, no data, empty text', async () => {
    const note = await create({ noteType: 'NOTE' });
    expect(note.patientId).toBeNull();
    const noPatient = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: text('hello') });
    expect(noPatient.status).toBe(400);
    expect(noPatient.body.message).toBe('Missing patient associated with note.');

    const noData = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, patientId, data: {} });
    expect(noData.body.message).toBe('The note has no content to save.');
    const empty = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, patientId, data: { text: '  ', formattedText: '<p></p>' } });
    expect(empty.body.message).toBe('The note text is empty.');

    const wild = { text: 'BP: *** mmHg', formattedText: '<p>BP: *** mmHg</p>' };
    const save = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, patientId, data: wild });
    expect(save.status).toBe(400);
    expect(save.body.message).toBe('There is still a wildcard in the note');
    const sign = await api(provider, 'POST', `/v1/notes/${note.noteId}/sign`, { noteVersion: 1, patientId, data: wild });
    expect(sign.body.message).toBe('There is still a wildcard in the note');

    const unchanged = await api(provider, 'GET', `/v1/notes/${note.noteId}`);
    expect(unchanged.body).toMatchObject({ noteVersion: 1, status: 'DRAFT', patientId: null });

    const ok = await api(provider, 'POST', `/v1/notes/${note.noteId}/sign`, { noteVersion: 1, patientId, data: text('BP: 120/80 mmHg') });
    expect(ok.body).toMatchObject({ status: 'SIGNED', patientId, noteVersion: 2 });
  });

  it('refuses a stale noteVersion with 409 and keeps the newer edit', async () => {
    const note = await create({ noteType: 'NOTE', patientId, data: text('v1') });
    const a = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: text('window A') });
    expect(a.status).toBe(200);
    const b = await api(employee, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: text('window B') });
    expect(b.status).toBe(409);
    expect(b.body).toEqual({ message: 'This note was changed by someone else. Reload it to see the latest version.', noteVersion: 2 });
    for (const path of ['sign', 'toggle-access']) {
      const stale = await api(employee, 'POST', `/v1/notes/${note.noteId}/${path}`, { noteVersion: 1 });
      expect(stale.status).toBe(409);
    }
    const del = await api(employee, 'DELETE', `/v1/notes/${note.noteId}?noteVersion=1`);
    expect(del.status).toBe(409);
    expect((await api(provider, 'GET', `/v1/notes/${note.noteId}`)).body.data.text).toBe('window A');

    // Two saves racing on one version: exactly one wins.
    const race = await Promise.all([
      api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 2, data: text('race 1') }),
      api(employee, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 2, data: text('race 2') }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = race.find((r) => r.status === 200)!.body.data.text;
    expect((await api(provider, 'GET', `/v1/notes/${note.noteId}`)).body).toMatchObject({ noteVersion: 3, data: { text: winner } });
  });

  it('changes the patient, toggles access only for lockable types, and deletes', async () => {
    const note = await create({ noteType: 'PHONE_CALL', patientId, data: text('Called about labs') });
    const moved = await api(provider, 'POST', `/v1/notes/${note.noteId}/change-patient`, { noteVersion: 1, patientId: otherPatientId });
    expect(moved.body).toMatchObject({ patientId: otherPatientId, noteVersion: 2 });
    const missing = await api(provider, 'POST', `/v1/notes/${note.noteId}/change-patient`, { noteVersion: 2, patientId: 'pat-nope' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Patient not found');

    const locked = await api(provider, 'POST', `/v1/notes/${note.noteId}/toggle-access`, { noteVersion: 2 });
    expect(locked.body).toMatchObject({ hidden: true, noteVersion: 3 });
    const unlocked = await api(provider, 'POST', `/v1/notes/${note.noteId}/toggle-access`, { noteVersion: 3 });
    expect(unlocked.body.hidden).toBe(false);

    const sticky = await create({ noteType: 'STICKY', patientId, data: text('Prefers mornings') });
    const refused = await api(provider, 'POST', `/v1/notes/${sticky.noteId}/toggle-access`, { noteVersion: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Only document, note, phone call and lab notes can be locked.');

    const del = await api(provider, 'DELETE', `/v1/notes/${note.noteId}?noteVersion=4`);
    expect(del.status).toBe(200);
    expect(del.body.status).toBe('DELETED');
    const gone = await api(provider, 'GET', `/v1/notes/${note.noteId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('This note has been deleted');
    expect((await api(provider, 'GET', `/v1/notes?patientId=${otherPatientId}`)).body.notes.map((n: { noteId: string }) => n.noteId)).not.toContain(
      note.noteId,
    );
  });
});

describe('note types', () => {
  it('EMAIL: draft with From = user and To = patient, subject required, WRITTEN on save, sent through the outbox', async () => {
    const email = await create({ noteType: 'EMAIL', patientId });
    expect(email).toMatchObject({ status: 'DRAFT', data: { from: 'provider@demo.tidewell.local', to: `nora.${run}@example.test`, subject: '' } });

    const noSubject = await api(provider, 'POST', `/v1/notes/${email.noteId}`, { noteVersion: 1, data: { ...email.data, ...text('Your results are in.') } });
    expect(noSubject.status).toBe(400);
    expect(noSubject.body).toMatchObject({ message: 'Subject is required', fieldErrors: { subject: 'Subject is required' } });

    const earlySend = await api(provider, 'POST', `/v1/notes/${email.noteId}/send`, { noteVersion: 1 });
    expect(earlySend.body.message).toBe('The email cannot be sent without body, subject.');

    const saved = await api(provider, 'POST', `/v1/notes/${email.noteId}`, {
      noteVersion: 1,
      data: { ...email.data, subject: `Results ${run}`, ...text('Your results are in.') },
    });
    expect(saved.body).toMatchObject({ status: 'WRITTEN', noteVersion: 2 });

    const sent = await api(provider, 'POST', `/v1/notes/${email.noteId}/send`, { noteVersion: 2 });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'SENT', data: { transport: 'local-outbox' } });
    const resend = await api(provider, 'POST', `/v1/notes/${email.noteId}/send`, { noteVersion: sent.body.noteVersion });
    expect(resend.body.message).toBe('This email has already been sent.');

    expect(await outbox(`Results ${run}`)).toEqual([
      expect.objectContaining({
        to: `nora.${run}@example.test`,
        from: 'provider@demo.tidewell.local',
        text: 'Your results are in.',
        transport: 'local-outbox',
      }),
    ]);
  });

  it("EMAIL to a patient without an email address is refused with 'Missing patient email address.' and stays written", async () => {
    const email = await create({ noteType: 'EMAIL', patientId: childId });
    expect(email.data.to).toBe('');
    const saved = await api(provider, 'POST', `/v1/notes/${email.noteId}`, {
      noteVersion: 1,
      data: { ...email.data, subject: `No address ${run}`, ...text('Hello') },
    });
    expect(saved.body.status).toBe('WRITTEN');
    const send = await api(provider, 'POST', `/v1/notes/${email.noteId}/send`, { noteVersion: 2 });
    expect(send.status).toBe(400);
    expect(send.body).toMatchObject({ message: 'Missing patient email address.', fieldErrors: { to: 'Missing patient email address.' } });
    expect((await api(provider, 'GET', `/v1/notes/${email.noteId}`)).body).toMatchObject({ status: 'WRITTEN', noteVersion: 2 });
    expect(await outbox(`No address ${run}`)).toEqual([]);
  });

  it('EMAIL the mail service refuses: the note stays written with its text, the error says so, and a retry can go on', async () => {
    // The local outbox refuses the reserved .invalid domain as SES refuses an address.
    const unreachable = await newPatient('Ivy', '1990-02-02', `ivy.${run}@clinic.invalid`);
    const email = await create({ noteType: 'EMAIL', patientId: unreachable });
    const saved = await api(provider, 'POST', `/v1/notes/${email.noteId}`, {
      noteVersion: 1,
      data: { ...email.data, subject: `Refused ${run}`, ...text('Your visit summary') },
    });
    expect(saved.body.status).toBe('WRITTEN');

    const send = await api(provider, 'POST', `/v1/notes/${email.noteId}/send`, { noteVersion: 2 });
    expect(send.status).toBe(502);
    expect(send.body).toMatchObject({
      message:
        'There was an error sending the email. The mail service refused the message; check the To and From addresses. The note is kept and was not sent.',
      reason: 'rejected',
      noteVersion: 4,
    });
    const kept = (await api(provider, 'GET', `/v1/notes/${email.noteId}`)).body;
    expect(kept).toMatchObject({ status: 'WRITTEN', noteVersion: 4, data: { subject: `Refused ${run}`, text: 'Your visit summary' } });
    expect(kept.data).not.toHaveProperty('sentAt');
    expect(await outbox(`Refused ${run}`)).toEqual([]);

    // With the version from the error, the note can be moved to a reachable patient and sent.
    const moved = await api(provider, 'POST', `/v1/notes/${email.noteId}/change-patient`, { noteVersion: 4, patientId });
    expect(moved.body.data.to).toBe(`nora.${run}@example.test`);
    const retry = await api(provider, 'POST', `/v1/notes/${email.noteId}/send`, { noteVersion: moved.body.noteVersion });
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('SENT');
    expect(await outbox(`Refused ${run}`)).toHaveLength(1);
  });

  it('SMS_LOG is saved DELIVERED and stays delivered when signed', async () => {
    const log = await create({ noteType: 'SMS_LOG', patientId, data: text('Patient: running late') });
    expect(log.status).toBe('DELIVERED');
    const saved = await api(provider, 'POST', `/v1/notes/${log.noteId}`, { noteVersion: 1, data: text('Patient: running 10 min late') });
    expect(saved.body.status).toBe('DELIVERED');
    const signed = await api(provider, 'POST', `/v1/notes/${log.noteId}/sign`, { noteVersion: 2 });
    expect(signed.body).toMatchObject({ status: 'DELIVERED', signed: expect.any(String) });
    const afterSign = await api(provider, 'POST', `/v1/notes/${log.noteId}`, { noteVersion: 3, data: text('Edited after signing') });
    expect(afterSign.status).toBe(400);
  });

  it('a delivered note other than an SMS log has gone out: a plain save is refused and changes nothing', async () => {
    const delivered = await create({ noteType: 'NOTE', status: 'DELIVERED', patientId, data: text('Sent to the portal') });
    expect(delivered.status).toBe('DELIVERED');
    const refused = await api(provider, 'POST', `/v1/notes/${delivered.noteId}`, { noteVersion: 1, data: text('Rewritten later') });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(NOTE_MESSAGES.signedReadOnly);
    expect((await api(provider, 'GET', `/v1/notes/${delivered.noteId}`)).body).toMatchObject({ noteVersion: 1, data: { text: 'Sent to the portal' } });
  });

  it('VITALS: numbers with units and BMI, head circumference only up to 20, history sorted by eventTimestamp', async () => {
    const later = await create({
      noteType: 'VITALS',
      patientId,
      eventTimestamp: '2026-03-02T10:00:00.000Z',
      data: { weight: '180', height: '70', systolic: 122, diastolic: 78 },
    });
    expect(later.data).toMatchObject({ weight: 180, height: 70, bmi: 25.82, weightUnit: 'lb', heightUnit: 'in', tempUnit: '°F' });
    const signed = await api(provider, 'POST', `/v1/notes/${later.noteId}/sign`, { noteVersion: 1 });
    expect(signed.body.status).toBe('SIGNED');
    const earlier = await create({ noteType: 'VITALS', patientId, eventTimestamp: '2025-11-20T10:00:00.000Z', data: { temp: 98.6 } });

    const bad = await api(provider, 'POST', `/v1/notes/${earlier.noteId}`, { noteVersion: 1, data: { weight: 'heavy' } });
    expect(bad.body.message).toBe('Weight must be a number');
    const adultHead = await api(provider, 'POST', `/v1/notes/${earlier.noteId}`, { noteVersion: 1, data: { headCircumference: 22 } });
    expect(adultHead.body.message).toBe('Head circumference is recorded only for patients 20 or younger.');

    const child = await create({ noteType: 'VITALS', patientId: childId, data: { headCircumference: '19.5', weight: 40, height: 42 } });
    const childSaved = await api(provider, 'POST', `/v1/notes/${child.noteId}`, { noteVersion: 1, data: child.data });
    expect(childSaved.body.data).toMatchObject({ headCircumference: 19.5, bmi: 15.94 });

    const history = await api(provider, 'GET', `/v1/notes?patientId=${patientId}&noteType=VITALS`);
    expect(history.body.notes.map((n: { noteId: string }) => n.noteId)).toEqual([earlier.noteId, later.noteId]);
  });

  it('DOCUMENT with attached files saves without text', async () => {
    const doc = await create({ noteType: 'DOCUMENT', patientId });
    const saved = await api(provider, 'POST', `/v1/notes/${doc.noteId}`, {
      noteVersion: 1,
      data: { text: '', formattedText: '' },
      files: [{ key: `protected/${patientId}/scan.pdf`, name: 'scan.pdf', contentType: 'application/pdf', size: 1200 }],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.files).toHaveLength(1);
  });
});

describe('note listings', () => {
  it('GET /v2/notes defaults to signed/addended NOTEs, newest first, and filters by type and status', async () => {
    const pid = await newPatient('Tess', '1990-01-01');
    const mk = async (t: string, at: string, sign: boolean, noteType = 'NOTE') => {
      const n = await create({ noteType, patientId: pid, eventTimestamp: at, data: text(t) });
      if (sign) await api(provider, 'POST', `/v1/notes/${n.noteId}/sign`, { noteVersion: 1 });
      return n.noteId as string;
    };
    const a = await mk('a', '2026-01-01T09:00:00.000Z', true);
    const b = await mk('b', '2026-02-01T09:00:00.000Z', true);
    const draft = await mk('c', '2026-03-01T09:00:00.000Z', false);
    const call = await mk('d', '2026-04-01T09:00:00.000Z', true, 'PHONE_CALL');

    const page = await api(provider, 'GET', `/v2/notes?patientId=${pid}`);
    expect(page.body).toMatchObject({ total: 2, hasMore: false, offset: 0, limit: 50 });
    expect(page.body.notes.map((n: { noteId: string }) => n.noteId)).toEqual([b, a]);

    const drafts = await api(provider, 'GET', `/v2/notes?patientId=${pid}&statuses=DRAFT&currentNoteId=${call}`);
    expect(drafts.body.notes.map((n: { noteId: string }) => n.noteId)).toEqual([draft]);
    expect(drafts.body.currentNote.noteId).toBe(call);

    const both = await api(provider, 'GET', `/v2/notes?patientId=${pid}&noteTypes=NOTE,PHONE_CALL&statuses=SIGNED,DRAFT&limit=2&offset=1`);
    // The read stops at the page and one more, so the total is not known from it, but a next page is.
    expect(both.body).toMatchObject({ hasMore: true, limit: 2, offset: 1 });
    expect(both.body.notes.map((n: { noteId: string }) => n.noteId)).toEqual([draft, b]);

    const bad = await api(provider, 'GET', `/v2/notes?patientId=${pid}&noteTypes=BOGUS`);
    expect(bad.status).toBe(400);

    const range = await api(provider, 'GET', `/v1/notes?patientId=${pid}&startDate=2026-01-15&endDate=2026-03-01&excludeFormattedText=true`);
    expect(range.body.notes.map((n: { noteId: string }) => n.noteId)).toEqual([b, draft]);
    expect(range.body.notes[0].data).toEqual({ text: 'b' });
  });
});
