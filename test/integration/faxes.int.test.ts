import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { faxCallbackToken } from '../../functions/lib/adapters/fax.js';
import { api, createTestUser, patientAuditTrail, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';
import { pdfText } from '../support/pdf-text.js';
import { eventually } from '../support/eventually.js';

const run = Date.now().toString(36);
const digits = String(1000 + (Number.parseInt(run.slice(-4), 36) % 8000));
let provider: string;
let employee: string;
let patientId: string;
const patientPhone = `+1503555${digits}`;

const faxSecret = () => (JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')) as Record<string, string>)['sinch-fax']!;
const webUrl = () => stackOutputs().webUrl;

/** A callback as Sinch sends it: unsigned, JSON, to the callback URL with the practice's token (or the token given). */
async function sinchCallback(body: unknown, token: string | null = faxCallbackToken(faxSecret()), partnerId = 'sinch-fax') {
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`;
  const res = await fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/${partnerId}/faxes${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function download(token: string, key: string): Promise<Uint8Array> {
  const res = await api(token, 'GET', `/v1/s3/files?key=${encodeURIComponent(key)}`);
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await (await fetch(res.body.signedUrl)).arrayBuffer());
  // FAX_DUMP=<folder> keeps each PDF to render and look at (pdftoppm -png -r 60).
  if (process.env.FAX_DUMP) writeFileSync(`${process.env.FAX_DUMP}/fax-${Date.now()}.pdf`, bytes);
  return bytes;
}

async function signedNote(text: string): Promise<string> {
  const created = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', status: 'DRAFT', data: { text }, patientId });
  expect(created.status).toBe(201);
  const signed = await api(provider, 'POST', `/v1/notes/${created.body.noteId}/sign`, {
    noteVersion: created.body.noteVersion,
    data: { text, formattedText: `<p>${text}</p>` },
  });
  expect(signed.status).toBe(200);
  return created.body.noteId as string;
}

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  employee = await signIn('employee@demo.tidewell.local');
  const patient = await api(provider, 'POST', '/v1/patients', {
    firstName: 'Fern',
    lastName: `Faxon${run}`,
    gender: 'female',
    dob: '1968-03-09',
    primaryPhoneNumber: patientPhone,
  });
  expect(patient.status).toBe(201);
  patientId = patient.body.id;
});

describe('faxes', () => {
  it('faxes a signed note as a letter stored under the patient, queued, delivered by the vendor callback, listed and resent', async () => {
    const numbers = await api(employee, 'GET', '/v1/faxes/fax-numbers');
    expect(numbers.status).toBe(200);
    expect(numbers.body.faxNumbers).toEqual(['+15415550190']);
    // The local stand-in holds the demo practice file's fax line, as the deployed stack passes it to Sinch.
    const demo = JSON.parse(readFileSync(new URL('../../practices/demo.json', import.meta.url), 'utf8')) as { fax: { numbers: string[] } };
    expect(demo.fax.numbers).toEqual(numbers.body.faxNumbers);

    const noteId = await signedNote(`Echo ordered for palpitations ${run}.`);
    const sent = await api(employee, 'POST', '/v1/faxes', {
      patientId,
      noteId,
      to: '(541) 555-7788',
      recipientName: 'Riverside Cardiology',
      coverText: 'Please see the attached visit note.',
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      direction: 'OUTBOUND',
      status: 'QUEUED',
      recipient: '+15415557788',
      sender: '+15415550190',
      patientId,
      sourceNoteId: noteId,
      attempts: 1,
    });
    expect(sent.body.faxId).toMatch(/^01/);
    expect(sent.body.fileKey).toMatch(new RegExp(`^protected/${patientId}/generated-faxes/.+\\.pdf$`));

    const text = pdfText(await download(employee, sent.body.fileKey)).join(' ');
    for (const expected of [
      'Fax',
      'Riverside Cardiology',
      'Please see the attached visit note.',
      `Fern Faxon${run}`,
      `Echo ordered for palpitations ${run}.`,
      'Visit note',
    ])
      expect(text).toContain(expected);

    // The FAX note in the chart points at the PDF.
    const faxNote = await api(employee, 'GET', `/v1/notes/${sent.body.faxNoteId}`);
    expect(faxNote.body).toMatchObject({ noteType: 'FAX', status: 'SENT', patientId, files: [{ key: sent.body.fileKey }] });

    const delivered = await eventually(
      'the fax delivered',
      async () => (await api(employee, 'GET', `/v1/faxes?query=${encodeURIComponent(`Faxon${run}`)}`)).body,
      (b) => b.faxes?.[0]?.status === 'COMPLETED',
    );
    expect(delivered.faxes).toHaveLength(1);
    expect(delivered.faxes[0]).toMatchObject({ ident: sent.body.ident, status: 'COMPLETED', pages: 1 });

    // Filters: direction, status, recipient, dates, paging.
    expect((await api(employee, 'GET', `/v1/faxes?direction=INBOUND&query=Faxon${run}`)).body.faxes).toEqual([]);
    expect((await api(employee, 'GET', `/v1/faxes?status=QUEUED&query=Faxon${run}`)).body.faxes).toEqual([]);
    expect((await api(employee, 'GET', `/v1/faxes?recipient=5415557788&query=Faxon${run}`)).body.faxes).toHaveLength(1);
    expect((await api(employee, 'GET', `/v1/faxes?toDate=2000-01-01&query=Faxon${run}`)).body.faxes).toEqual([]);
    // A query typed as a number finds the fax by its recipient; a name with digits in it is matched as text only.
    const byNumber = (await api(employee, 'GET', `/v1/faxes?limit=500&query=${encodeURIComponent('(541) 555-7788')}`)).body.faxes as Array<{ ident: string }>;
    expect(byNumber.map((f) => f.ident)).toContain(sent.body.ident);
    expect((await api(employee, 'GET', `/v1/faxes?query=Nobody5415557788`)).body.faxes).toEqual([]);
    const page = await api(employee, 'GET', '/v1/faxes');
    expect(page.body).toMatchObject({ offset: 0, limit: 100 });
    expect((await api(employee, 'GET', '/v1/faxes?limit=0')).status).toBe(400);

    // A repeated callback (Sinch retries until it gets 200) changes nothing; one without the practice's token is refused.
    const again = await sinchCallback({ event: 'FAX_COMPLETED', fax: { id: sent.body.faxId, status: 'COMPLETED' } });
    expect(again).toMatchObject({ status: 200, body: { replayed: true } });
    const backwards = await sinchCallback({ event: 'FAX_COMPLETED', fax: { id: sent.body.faxId, status: 'QUEUED' } });
    expect(backwards.body.replayed).toBe(true);
    expect((await sinchCallback({ event: 'FAX_COMPLETED', fax: { id: sent.body.faxId, status: 'FAILURE' } }, faxCallbackToken('another:key'))).status).toBe(
      401,
    );
    expect((await sinchCallback({ event: 'FAX_COMPLETED', fax: { id: sent.body.faxId, status: 'FAILURE' } }, null)).status).toBe(401);
    const token = faxCallbackToken(faxSecret());
    expect(
      (await sinchCallback({ event: 'FAX_COMPLETED', fax: { id: sent.body.faxId, status: 'FAILURE' } }, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')))
        .status,
    ).toBe(401);
    // Another partner's valid signature is not the fax vendor's.
    expect((await api(employee, 'GET', `/v1/faxes?query=Faxon${run}`)).body.faxes[0].status).toBe('COMPLETED');

    const resent = await api(employee, 'PUT', `/v1/faxes/${sent.body.ident}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ ident: sent.body.ident, status: 'QUEUED', attempts: 2, fileKey: sent.body.fileKey });
    expect(resent.body.faxId).not.toBe(sent.body.faxId);
    await eventually(
      'the fax delivered',
      async () => (await api(employee, 'GET', `/v1/faxes?query=Faxon${run}`)).body,
      (b) => b.faxes?.[0]?.status === 'COMPLETED',
    );

    const updated = await api(employee, 'PUT', `/v1/faxes/${sent.body.ident}`, { read: false });
    expect(updated.body).toMatchObject({ read: false });

    const trail = await patientAuditTrail(patientId);
    expect(trail.some((e) => e.entity === 'fax' && e.action === 'create')).toBe(true);
  });

  it('faxes the facesheet, and only a signed or addended note', async () => {
    const draft = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', status: 'DRAFT', data: { text: 'draft' }, patientId });
    const refused = await api(employee, 'POST', '/v1/faxes', { patientId, noteId: draft.body.noteId, to: '5415557788' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Only a signed or addended note can be faxed.');
    expect((await api(employee, 'POST', '/v1/faxes', { patientId, to: '12' })).status).toBe(400);
    const facesheet = await api(employee, 'POST', '/v1/faxes', { patientId, to: '5415557788' });
    expect(facesheet.status).toBe(201);
    const text = pdfText(await download(employee, facesheet.body.fileKey)).join(' ');
    expect(text).toContain('Facesheet');
    expect(text).toContain('03/09/1968');
  });

  it('turns a received fax into a FAX note on the patient with that number, and a FAX notification', async () => {
    const res = await fetch(`${webUrl()}/local/fax/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: patientPhone }),
    });
    const body = (await res.json()) as { fax: { id: string }; callbackStatus: number };
    // Sinch counts anything but 200 as a failed webhook and retries it.
    expect(body.callbackStatus).toBe(200);
    const list = await api(employee, 'GET', `/v1/faxes?direction=INBOUND&sender=${patientPhone.slice(2)}`);
    const fax = list.body.faxes.find((f: { faxId: string }) => f.faxId === body.fax.id);
    expect(fax).toMatchObject({ direction: 'INBOUND', status: 'COMPLETED', patientId, read: false });
    expect(fax.fileKey).toBe(`protected/${patientId}/faxes/received-${body.fax.id}.pdf`);
    const note = await api(employee, 'GET', `/v1/notes/${fax.faxNoteId}`);
    expect(note.body).toMatchObject({ noteType: 'FAX', status: 'DELIVERED', patientId, files: [{ key: fax.fileKey }] });
    expect(pdfText(await download(employee, fax.fileKey)).join(' ')).toContain('Riverside Cardiology');
    const notes = await api(employee, 'GET', `/v1/notifications?notificationType=FAX&sourceId=${fax.ident}`);
    const items = (Array.isArray(notes.body) ? notes.body : notes.body.notifications) as { notificationType: string; data: Record<string, unknown> }[];
    expect(items[0]).toMatchObject({ notificationType: 'FAX', data: { faxNumber: patientPhone, s3Path: fax.fileKey, faxId: body.fax.id } });

    const inboundNotes = await api(employee, 'GET', '/v1/notes/faxes?direction=inbound&limit=500');
    expect(inboundNotes.status).toBe(200);
    expect(inboundNotes.body.notes.map((n: { noteId: string }) => n.noteId)).toContain(fax.faxNoteId);
    expect(inboundNotes.body.notes.every((n: { data: { direction: string } }) => n.data.direction === 'INBOUND')).toBe(true);
    const allNotes = await api(employee, 'GET', '/v1/notes/faxes?direction=all&limit=500');
    expect(allNotes.body.notes.some((n: { data: { direction: string } }) => n.data.direction === 'OUTBOUND')).toBe(true);
    expect((await api(employee, 'GET', '/v1/notes/faxes?direction=outbound')).status).toBe(400);

    // The same delivery again changes nothing.
    const replay = await sinchCallback({
      event: 'INCOMING_FAX',
      fax: { id: body.fax.id, from: patientPhone },
      file: Buffer.from('%PDF-1.4 x').toString('base64'),
    });
    expect(replay).toMatchObject({ status: 200, body: { replayed: true } });
    const form = new FormData();
    form.set('event', 'INCOMING_FAX');
    form.set('fax', JSON.stringify({ id: body.fax.id, from: patientPhone }));
    form.set('file', new Blob(['%PDF-1.4 tampered'], { type: 'application/pdf' }), 'fax.pdf');
    const formReplay = await fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/sinch-fax/faxes?token=${faxCallbackToken(faxSecret())}`, {
      method: 'POST',
      body: form,
    });
    expect(formReplay.status).toBe(200);
    expect(await formReplay.json()).toMatchObject({ replayed: true });
    expect(pdfText(await download(employee, fax.fileKey)).join(' ')).toContain('Riverside Cardiology');

    // An unknown number: recorded and announced, on no patient.
    const unknown = await fetch(`${webUrl()}/local/fax/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: '+12065550999' }),
    });
    const u = (await unknown.json()) as { fax: { id: string } };
    const unmatched = (await api(employee, 'GET', '/v1/faxes?direction=INBOUND&sender=2065550999')).body.faxes.find(
      (f: { faxId: string }) => f.faxId === u.fax.id,
    );
    expect(unmatched).toMatchObject({ patientId: null, faxNoteId: null, fileKey: `protected/unmatched-faxes/received-${u.fax.id}.pdf` });

    // Filed under a patient, it becomes a FAX note in their chart with its PDF; filing it again makes no second note.
    const filed = await api(employee, 'PUT', `/v1/faxes/${unmatched.ident}`, { patientId, read: true });
    expect(filed.status).toBe(200);
    expect(filed.body).toMatchObject({ patientId, patientName: `Fern Faxon${run}`, read: true });
    expect(filed.body.faxNoteId).toEqual(expect.any(String));
    const filedNote = await api(employee, 'GET', `/v1/notes/${filed.body.faxNoteId}`);
    expect(filedNote.body).toMatchObject({ noteType: 'FAX', status: 'DELIVERED', patientId, data: { direction: 'INBOUND', faxIdent: unmatched.ident } });
    expect(filedNote.body.files[0].key).toBe(unmatched.fileKey);
    const again = await api(employee, 'PUT', `/v1/faxes/${unmatched.ident}`, { patientId });
    expect(again.body.faxNoteId).toBe(filed.body.faxNoteId);
  });

  it('sends drive files after the letter (fileKeys): a PDF page by page, a picture on a page of its own; other files are refused', async () => {
    const upload = async (name: string, bytes: Uint8Array, contentType: string) => {
      const presign = await api(employee, 'POST', '/v1/s3/files', { key: `public/fax-attachments-${run}/${name}`, contentType, size: bytes.length });
      expect(presign.status).toBe(200);
      const put = await fetch(presign.body.signedUrl as string, {
        method: 'PUT',
        headers: { 'content-type': contentType, origin: webUrl() },
        body: Buffer.from(bytes),
      });
      expect(put.status).toBe(200);
      return presign.body.key as string;
    };
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const attached = await PDFDocument.create();
    const font = await attached.embedFont(StandardFonts.Helvetica);
    for (const n of [1, 2]) attached.addPage([612, 792]).drawText(`Outside lab page ${n} ${run}`, { x: 72, y: 700, size: 12, font });
    const pdfKey = await upload('labs.pdf', await attached.save(), 'application/pdf');
    // A 1×1 PNG.
    const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
    const pngKey = await upload('wound.png', png, 'image/png');
    const txtKey = await upload('notes.txt', new TextEncoder().encode('plain text'), 'text/plain');

    const sent = await api(employee, 'POST', '/v1/faxes', { patientId, to: '5415557788', fileKeys: [pdfKey, pngKey] });
    expect(sent.status).toBe(201);
    const bytes = await download(employee, sent.body.fileKey);
    const doc = await PDFDocument.load(bytes);
    // The letter (facesheet) page, the two PDF pages, the picture's page.
    expect(doc.getPageCount()).toBe(4);
    const text = pdfText(bytes).join(' ');
    expect(text).toContain('Facesheet');
    expect(text).toContain(`Outside lab page 1 ${run}`);
    expect(text).toContain(`Outside lab page 2 ${run}`);

    const refused = await api(employee, 'POST', '/v1/faxes', { patientId, to: '5415557788', fileKeys: [txtKey] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Only PDF, PNG and JPEG files can be faxed.');
    const missing = await api(employee, 'POST', '/v1/faxes', { patientId, to: '5415557788', fileKeys: [`public/fax-attachments-${run}/gone.pdf`] });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('An attached file was not found');
  });

  it('keeps faxes to their practice and refuses no_access users and no token', async () => {
    const foreign = await createTestUser({ email: `faxes-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_faxes' });
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    const mine = (await api(employee, 'GET', '/v1/faxes')).body.faxes[0];
    for (const token of [foreign, noAccess]) {
      expect((await api(token, 'GET', '/v1/faxes')).status).toBe(403);
      expect((await api(token, 'GET', '/v1/faxes/fax-numbers')).status).toBe(403);
      expect((await api(token, 'POST', '/v1/faxes', { patientId, to: '5415557788' })).status).toBe(403);
      expect((await api(token, 'PUT', `/v1/faxes/${mine.ident}`, { read: true })).status).toBe(403);
      expect((await api(token, 'PUT', `/v1/faxes/${mine.ident}/resend`)).status).toBe(403);
      expect((await api(token, 'GET', '/v1/notes/faxes')).status).toBe(403);
    }
    expect((await api(null, 'GET', '/v1/notes/faxes')).status).toBe(401);
    for (const [method, path] of [
      ['GET', '/v1/faxes'],
      ['GET', '/v1/faxes/fax-numbers'],
      ['POST', '/v1/faxes'],
      ['PUT', `/v1/faxes/${mine.ident}`],
      ['PUT', `/v1/faxes/${mine.ident}/resend`],
    ] as const) {
      expect((await api(null, method, path, method === 'GET' ? undefined : {})).status).toBe(401);
    }
    expect((await api(employee, 'PUT', '/v1/faxes/not-a-fax/resend')).status).toBe(404);
    // A fax callback on another partner's route, with that partner's token, is refused.
    const other = JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')) as Record<string, string>;
    expect(
      (
        await sinchCallback(
          { event: 'FAX_COMPLETED', fax: { id: mine.faxId, status: 'FAILURE' } },
          faxCallbackToken(other['local-care-plan']!),
          'local-care-plan',
        )
      ).status,
    ).toBe(404);
  });
});
