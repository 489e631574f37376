/**
 * The fax routes of the files group (spec shell §2.11, §7.4): they load with their first request,
 * and the PDF's pdf-lib only when a fax is drawn (handler.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  FAX_MESSAGES,
  FAX_PARTNER_ID,
  FAX_SEARCH_SCAN,
  FaxIdentParams,
  FaxListQuery,
  SendFaxBody,
  UpdateFaxBody,
  type Fax,
  type FaxList,
} from '../../shared/faxes/fax-schema.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { plainText } from '../../shared/notes/note-rules.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import { formatPhone, isPhoneLike } from '../../shared/patients/phone.js';
import { faxSettingsFromEnv, FaxVendorError, SinchFax, type FaxSettings } from '../lib/adapters/fax.js';
import { partnerSecretsFromEnv } from '../lib/adapters/partner-secrets.js';
import { filesBucketFromEnv, s3ObjectsFromEnv } from '../lib/adapters/s3-objects.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors.js';
import { route } from '../lib/http/group-handler.js';
import { insertNote } from '../data/notes/note-repository.js';
import { auditNote, personOf, requirePatient } from '../core/notes/note-common.js';
import { getNote } from '../data/notes/note-repository.js';
import type { Patient } from '../../shared/patients/patient-schema.js';
import { getPractice } from '../data/practices/practice-repository.js';
import { readObject } from '../lib/files/file-store.js';
import { FILES_PREFIX, patientOfKey, storedKey } from '../lib/files/presign.js';
import { countFaxes, getFax, listFaxes, listFaxPage, listFaxStretch, putFax } from '../data/faxes/fax-repository.js';
import { stretchPosition, stretchToken } from '../data/dated-list/dated-list.js';
import type { FaxRouteKey } from './routes.js';

const FAXABLE = new Set(['SIGNED', 'ADDENDED']);

function requireSettings(): FaxSettings {
  const settings = faxSettingsFromEnv();
  if (!settings || settings.numbers.length === 0) throw new ConflictError(FAX_MESSAGES.notSetUp);
  return settings;
}

async function vendor(settings: FaxSettings): Promise<SinchFax> {
  const key = await partnerSecretsFromEnv().secretOf(FAX_PARTNER_ID);
  if (!key) throw new ConflictError(FAX_MESSAGES.notSetUp);
  return new SinchFax({ baseUrl: settings.baseUrl, projectId: settings.projectId, key });
}

function dob(iso: string | undefined | null): string {
  if (!iso) return '—';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${m}/${d}/${y}`;
}

const NOTE_TITLES: Partial<Record<Note['noteType'], string>> = {
  NOTE: 'Visit note',
  DOCUMENT: 'Document',
  EMAIL: 'Email',
  PHONE_CALL: 'Phone call',
  LAB: 'Lab report',
  RX: 'Prescription',
  VITALS: 'Vitals',
};

/** The fax as a Letter PDF with zero margin on the practice's letterhead: cover fields, then the note or the facesheet. */
async function faxPdf(
  auth: AuthContext,
  patient: Patient,
  note: Note | null,
  to: string,
  from: string,
  recipientName: string | undefined,
  coverText: string | undefined,
): Promise<Uint8Array> {
  const practice = await getPractice(auth.practiceId);
  const { createLetterDocument } = await import('../lib/pdf/letter-document.js');
  const doc = await createLetterDocument(
    { practiceName: practice?.practiceName ?? 'Practice', phoneNumber: practice?.phoneNumber ?? null, base64Logo: practice?.base64Logo ?? null },
    { margins: 'fax', title: `Fax for ${fullName(patient)}` },
  );
  doc.heading('Fax');
  doc.fields([
    ['To', [recipientName, formatPhone(to)].filter(Boolean).join(', ')],
    ['From', `${practice?.practiceName ?? 'Practice'}, ${formatPhone(from)}`],
    ['Sent by', (await personOf(auth)).name],
    ['Date', new Date().toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' })],
    ['Regarding', `${fullName(patient)}, born ${dob(patient.dob)}`],
  ]);
  if (coverText) {
    doc.space(6);
    doc.text(coverText);
  }
  doc.rule();
  if (note) {
    doc.heading(NOTE_TITLES[note.noteType] ?? note.noteType);
    const signedBy = note.signedBy?.name ?? note.author.name;
    doc.text(
      `${new Date(note.eventTimestamp).toLocaleDateString('en-US', { timeZone: 'UTC' })}${note.signed ? `, signed ${new Date(note.signed).toLocaleDateString('en-US', { timeZone: 'UTC' })} by ${signedBy}` : ''}`,
      { muted: true },
    );
    doc.space(6);
    const data = note.data as {
      text?: string;
      formattedText?: string;
      subject?: string;
      addenda?: { text: string; formattedText: string; author: { name: string }; timestamp: string }[];
    };
    if (data.subject) doc.text(data.subject, { bold: true });
    doc.text(plainText(data.formattedText || data.text) || '(no text)');
    for (const addendum of data.addenda ?? []) {
      doc.space(8);
      doc.text(`Addendum by ${addendum.author.name}, ${new Date(addendum.timestamp).toLocaleDateString('en-US', { timeZone: 'UTC' })}`, { bold: true });
      doc.text(plainText(addendum.formattedText || addendum.text));
    }
  } else {
    doc.heading('Facesheet');
    const address = patient.address
      ? [patient.address.line1, patient.address.line2, [patient.address.city, patient.address.state, patient.address.zip].filter(Boolean).join(' ')]
          .filter(Boolean)
          .join(', ')
      : '';
    doc.fields([
      ['Patient', fullName(patient)],
      ['Date of birth', dob(patient.dob)],
      ['Sex', String((patient as { gender?: string }).gender ?? '—').replace(/^./, (c) => c.toUpperCase())],
      ['Address', address || '—'],
      ['Phone', patient.primaryPhoneNumber ? formatPhone(patient.primaryPhoneNumber) : '—'],
      ['Email', String((patient as { email?: string | null }).email ?? '—')],
    ]);
  }
  return doc.save();
}

/** The drive files a fax carries after its letter: each PDF's pages, each picture on a Letter page of its own, fitted inside half-inch margins. */
async function withAttachments(auth: AuthContext, letter: Uint8Array, fileKeys: readonly string[]): Promise<Uint8Array> {
  if (fileKeys.length === 0) return letter;
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.load(letter);
  for (const raw of fileKeys) {
    const key = storedKey(raw);
    let bytes: Uint8Array;
    try {
      bytes = await readObject(key);
    } catch {
      throw new NotFoundError(FAX_MESSAGES.attachmentMissing);
    }
    const head = Buffer.from(bytes.subarray(0, 8));
    const patientId = await patientOfKey(auth.practiceId, key);
    await writeAudit(auth, { action: 'read', entity: 'FILE', entityId: key, ...(patientId ? { patientId } : {}) });
    if (head.subarray(0, 5).toString('latin1') === '%PDF-') {
      const source = await PDFDocument.load(bytes, { ignoreEncryption: true });
      for (const page of await doc.copyPages(source, source.getPageIndices())) doc.addPage(page);
      continue;
    }
    const png = head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const jpeg = head[0] === 0xff && head[1] === 0xd8;
    if (!png && !jpeg) throw new ValidationError(FAX_MESSAGES.attachmentType, { fileKeys: FAX_MESSAGES.attachmentType });
    const image = png ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    const page = doc.addPage([612, 792]);
    const scale = Math.min(1, 540 / image.width, 720 / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    page.drawImage(image, { x: (612 - width) / 2, y: 792 - 36 - height, width, height });
  }
  return doc.save();
}

const filesBucket = (): string => filesBucketFromEnv();

async function transmit(settings: FaxSettings, fax: Fax, pdf: Uint8Array): Promise<Fax> {
  const sender = await vendor(settings);
  const at = new Date().toISOString();
  try {
    const sent = await sender.send({
      to: fax.recipient,
      from: fax.sender,
      pdf,
      fileName: fax.fileKey.split('/').pop() ?? 'fax.pdf',
      callbackUrl: settings.callbackUrl,
    });
    return { ...fax, faxId: sent.faxId, status: 'QUEUED', pages: sent.pages ?? fax.pages, errorMessage: null, updatedAt: at };
  } catch (error) {
    if (!(error instanceof FaxVendorError)) throw error;
    return { ...fax, status: 'FAILURE', errorMessage: error.message, updatedAt: at };
  }
}

/** POST /v1/faxes: draws the note (SIGNED or ADDENDED) or the facesheet, stores it under {patientId}/generated-faxes/, records a FAX note and sends it. */
export async function sendFax(auth: AuthContext, body: SendFaxBody): Promise<Fax> {
  const settings = requireSettings();
  const from = body.from && settings.numbers.includes(body.from) ? body.from : settings.numbers[0];
  const patient = await requirePatient(auth.practiceId, body.patientId);
  let note: Note | null = null;
  if (body.noteId) {
    note = await getNote(auth.practiceId, body.noteId);
    if (!note || note.patientId !== patient.id || note.status === 'DELETED') throw new NotFoundError('Note not found');
    if (!FAXABLE.has(note.status)) throw new ValidationError(FAX_MESSAGES.notSignable);
  }
  const pdf = await withAttachments(auth, await faxPdf(auth, patient, note, body.to, from, body.recipientName, body.coverText), body.fileKeys ?? []);
  const ident = randomUUID();
  const at = new Date().toISOString();
  const fileKey = `${FILES_PREFIX}${patient.id}/generated-faxes/${at.slice(0, 10)}-${ident}.pdf`;
  await s3ObjectsFromEnv().putObject({ bucket: filesBucket(), key: fileKey }, pdf, { contentType: 'application/pdf' });
  const author = await personOf(auth);
  const faxNote: Note = {
    noteId: randomUUID(),
    noteType: 'FAX',
    status: 'SENT',
    signed: null,
    eventTimestamp: at,
    timestamp: at,
    createdAt: at,
    data: {
      direction: 'OUTBOUND',
      faxIdent: ident,
      to: body.to,
      from,
      recipientName: body.recipientName ?? null,
      sourceNoteId: note?.noteId ?? null,
      text: body.coverText ?? '',
      sentAt: at,
      attachedFileKeys: (body.fileKeys ?? []).map(storedKey),
    },
    patientId: patient.id,
    hidden: false,
    files: [{ key: fileKey, name: 'fax.pdf', contentType: 'application/pdf' }] as Note['files'],
    author,
    onBehalfOf: null,
    noteVersion: 1,
    signedBy: null,
  };
  await insertNote(auth.practiceId, faxNote);
  await auditNote(auth, 'create', faxNote);
  if (note) await auditNote(auth, 'read', note);
  const draft: Fax = {
    ident,
    faxId: null,
    direction: 'OUTBOUND',
    status: 'QUEUED',
    sender: from,
    recipient: body.to,
    recipientName: body.recipientName ?? null,
    patientId: patient.id,
    patientName: fullName(patient),
    sourceNoteId: note?.noteId ?? null,
    faxNoteId: faxNote.noteId,
    fileKey,
    pages: null,
    coverText: body.coverText ?? null,
    errorMessage: null,
    read: true,
    attempts: 1,
    createdAt: at,
    updatedAt: at,
  };
  const fax = await transmit(settings, draft, pdf);
  await putFax(auth.practiceId, fax);
  await writeAudit(auth, { action: 'create', entity: 'fax', entityId: ident, patientId: patient.id });
  return fax;
}

/** PUT /v1/faxes/{ident}/resend: the same stored PDF to the same number again, as a new attempt. */
export async function resendFax(auth: AuthContext, ident: string): Promise<Fax> {
  const settings = requireSettings();
  const fax = await getFax(auth.practiceId, ident);
  if (!fax) throw new NotFoundError(FAX_MESSAGES.notFound);
  if (fax.direction !== 'OUTBOUND') throw new ValidationError(FAX_MESSAGES.inboundResend);
  const pdf = await readObject(fax.fileKey);
  const next = await transmit(settings, { ...fax, attempts: fax.attempts + 1 }, pdf);
  await putFax(auth.practiceId, next);
  await writeAudit(auth, { action: 'update', entity: 'fax', entityId: ident, ...(fax.patientId ? { patientId: fax.patientId } : {}) });
  return next;
}

export async function updateFax(auth: AuthContext, ident: string, body: UpdateFaxBody): Promise<Fax> {
  const fax = await getFax(auth.practiceId, ident);
  if (!fax) throw new NotFoundError(FAX_MESSAGES.notFound);
  let patientName = fax.patientName;
  let faxNoteId = fax.faxNoteId;
  const at = new Date().toISOString();
  if (body.patientId !== undefined && body.patientId !== fax.patientId) {
    const patient = body.patientId ? await requirePatient(auth.practiceId, body.patientId) : null;
    patientName = patient ? fullName(patient) : null;
    // A received fax no patient's number matched becomes a FAX note once it is filed under a patient.
    if (patient && fax.direction === 'INBOUND' && !fax.faxNoteId) {
      const note: Note = {
        noteId: randomUUID(),
        noteType: 'FAX',
        status: 'DELIVERED',
        signed: null,
        eventTimestamp: fax.createdAt,
        timestamp: at,
        createdAt: at,
        data: {
          direction: 'INBOUND',
          faxIdent: fax.ident,
          from: fax.sender,
          to: fax.recipient,
          text: `Fax received from ${formatPhone(fax.sender)}`,
          pages: fax.pages,
          filedBy: auth.userId,
        },
        patientId: patient.id,
        hidden: false,
        files: [{ key: fax.fileKey, name: 'fax.pdf', contentType: 'application/pdf' }] as Note['files'],
        author: await personOf(auth),
        onBehalfOf: null,
        noteVersion: 1,
        signedBy: null,
      };
      await insertNote(auth.practiceId, note);
      await auditNote(auth, 'create', note);
      faxNoteId = note.noteId;
    }
  }
  const next: Fax = {
    ...fax,
    ...(body.read !== undefined ? { read: body.read } : {}),
    ...(body.patientId !== undefined ? { patientId: body.patientId, patientName } : {}),
    faxNoteId,
    updatedAt: at,
  };
  await putFax(auth.practiceId, next);
  await writeAudit(auth, { action: 'update', entity: 'fax', entityId: ident, ...(next.patientId ? { patientId: next.patientId } : {}) });
  return next;
}

const digits = (v: string) => v.replace(/\D/g, '');

/** The filters of spec §7.4 the index cannot key: direction, status, numbers and text; null without any. */
function faxFilter(q: FaxListQuery): ((f: Fax) => boolean) | null {
  const text = q.query?.toLowerCase();
  if (!q.direction && !q.status && !q.sender && !q.recipient && !text) return null;
  return (f) => {
    if (q.direction && f.direction !== q.direction) return false;
    if (q.status && f.status !== q.status) return false;
    if (q.sender && !digits(f.sender).includes(digits(q.sender))) return false;
    if (q.recipient && !digits(f.recipient).includes(digits(q.recipient))) return false;
    if (text) {
      const hay = [f.patientName, f.recipientName, f.coverText, f.sender, f.recipient].filter(Boolean).join(' ').toLowerCase();
      if (!hay.includes(text) && !(isPhoneLike(text) && [f.sender, f.recipient].some((n) => digits(n).includes(digits(text))))) return false;
    }
    return true;
  };
}

const inRange = (q: FaxListQuery) => (f: Fax) => (!q.fromDate || f.createdAt.slice(0, 10) >= q.fromDate) && (!q.toDate || f.createdAt.slice(0, 10) <= q.toDate);

/**
 * GET /v1/faxes: every filter of spec §7.4, newest first unless order=asc. Without a filter but
 * dates the page is read from the faxes' index (its offset and itself) and the total from the
 * counts. Direction, status, numbers and text are not keys: such a list reads a stretch of the
 * range (FAX_SEARCH_SCAN faxes after `nextToken`) and answers its matches, their number as
 * `total`, with where the range goes on. A practice whose faxes are not listed yet reads them all.
 */
export async function faxList(auth: AuthContext, q: FaxListQuery): Promise<FaxList> {
  const range = { fromDate: q.fromDate, toDate: q.toDate };
  const ascending = q.order === 'asc';
  const after = stretchPosition(q.nextToken, range);
  const matches = faxFilter(q);
  const counted = await countFaxes(auth.practiceId, range);
  let page: Fax[];
  let total: number;
  let nextToken: string | null | undefined;
  if (counted === null) {
    const found = (await listFaxes(auth.practiceId)).filter((f) => inRange(q)(f) && (!matches || matches(f)));
    found.sort((a, b) => (ascending ? a.createdAt.localeCompare(b.createdAt) : b.createdAt.localeCompare(a.createdAt)));
    page = found.slice(q.offset, q.offset + q.limit);
    total = found.length;
  } else if (matches) {
    const stretch = await listFaxStretch(auth.practiceId, range, { ascending, after, max: FAX_SEARCH_SCAN });
    const found = stretch.faxes.filter(matches);
    page = found.slice(q.offset, q.offset + q.limit);
    total = found.length;
    nextToken = stretchToken(stretch.next);
  } else {
    page = (await listFaxPage(auth.practiceId, range, { ascending, wanted: q.offset + q.limit })).slice(q.offset);
    total = counted;
  }
  await writeAudit(auth, { action: q.query ? 'search' : 'list', entity: 'fax' });
  return { faxes: page, total, offset: q.offset, limit: q.limit, ...(nextToken !== undefined ? { nextToken } : {}) };
}

export const FAX_ROUTES = {
  'GET /v1/faxes': route({ query: FaxListQuery, run: ({ auth, query }) => faxList(auth, query) }),
  'POST /v1/faxes': route({ body: SendFaxBody, status: 201, run: ({ auth, body }) => sendFax(auth, body) }),
  'GET /v1/faxes/fax-numbers': route({ run: async () => ({ faxNumbers: faxSettingsFromEnv()?.numbers ?? [] }) }),
  'PUT /v1/faxes/{ident}': route({ params: FaxIdentParams, body: UpdateFaxBody, run: ({ auth, params, body }) => updateFax(auth, params.ident, body) }),
  'PUT /v1/faxes/{ident}/resend': route({ params: FaxIdentParams, run: ({ auth, params }) => resendFax(auth, params.ident) }),
} satisfies Record<FaxRouteKey, unknown>;
