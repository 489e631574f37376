/**
 * The fax vendor's callbacks (Sinch Fax API v3, JSON or multipart) on the delivery route, with the token of their URL,
 * loaded with the first fax callback: FAX_COMPLETED moves a sent fax's status forward (a repeated
 * or late event changes nothing); INCOMING_FAX stores the PDF, records the fax, writes a FAX note on
 * the patient whose number sent it (none when no single patient has it) and a FAX notification.
 * GET /v1/notes/faxes shares this chunk: the notes group has no room on its cold path (handler.ts).
 */
import { randomUUID } from 'node:crypto';
import * as z from '../../shared/zod.js';
import { FAX_PARTNER_ID, FAX_STATUSES, type Fax, type FaxStatus } from '../../shared/faxes/fax-schema.js';
import { normalizePhone } from '../../shared/patients/phone.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import { filesBucketFromEnv, s3ObjectsFromEnv } from '../lib/adapters/s3-objects.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../lib/errors.js';
import { parseFaxCallback, verifyFaxCallbackToken } from '../lib/adapters/fax.js';
import { PARTNER_MESSAGES } from '../../shared/partners/partner-schema.js';
import { parseOrThrow } from '../lib/http/zod-errors.js';
import { FILES_PREFIX } from '../lib/files/presign.js';
import { advancesStatus, getFaxByVendorId, putFax } from '../data/faxes/fax-repository.js';
import { createNotification } from '../data/notifications/notification-repository.js';
import { queryPatientsByName } from '../data/patients/patient-repository.js';
import { externalNote, putDeliveryOnce, storedDelivery, writeDeliveredNote } from '../data/notes/delivery-records.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { FAX_LIST_DEFAULT_LIMIT, FAX_LIST_MAX_LIMIT } from '../../shared/faxes/fax-schema.js';
import { route } from '../lib/http/group-handler.js';
import { listFaxes, listFaxNotePage } from '../data/faxes/fax-repository.js';
import { getNote } from '../data/notes/note-repository.js';

const FaxObject = z.object({
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  direction: z.optional(z.string()),
  from: z.optional(z.string().check(z.maxLength(40))),
  to: z.optional(z.string().check(z.maxLength(40))),
  status: z.optional(z.string()),
  numberOfPages: z.optional(z.number()),
  errorMessage: z.optional(z.string().check(z.maxLength(500))),
});

const FaxEventBody = z.object({
  event: z.string(),
  eventTime: z.optional(z.string()),
  fax: FaxObject,
  file: z.optional(z.string().check(z.maxLength(20_000_000))),
  fileType: z.optional(z.string()),
});

const faxActor = (practiceId: string): AuthContext => ({
  practiceId,
  userId: `partner:${FAX_PARTNER_ID}`,
  email: '',
  name: 'Fax',
  role: 'employee',
  groups: [],
});

const filesBucket = (): string => filesBucketFromEnv();

export interface FaxEventOutcome {
  ident: string;
  noteId: string | null;
  replayed: boolean;
}

async function completed(practiceId: string, fax: z.infer<typeof FaxObject>): Promise<FaxEventOutcome> {
  const record = await getFaxByVendorId(practiceId, fax.id);
  if (!record) throw new NotFoundError('Fax not found');
  const status = (FAX_STATUSES as readonly string[]).includes(fax.status ?? '') ? (fax.status as FaxStatus) : null;
  if (!status || !advancesStatus(record.status, status)) return { ident: record.ident, noteId: record.faxNoteId, replayed: true };
  const next: Fax = {
    ...record,
    status,
    pages: fax.numberOfPages ?? record.pages,
    errorMessage: status === 'FAILURE' ? (fax.errorMessage ?? 'The fax was not delivered.') : null,
    updatedAt: new Date().toISOString(),
  };
  await putFax(practiceId, next);
  await writeAudit(faxActor(practiceId), {
    action: 'update',
    entity: 'fax',
    entityId: record.ident,
    ...(record.patientId ? { patientId: record.patientId } : {}),
  });
  return { ident: record.ident, noteId: record.faxNoteId, replayed: false };
}

async function incoming(practiceId: string, body: z.infer<typeof FaxEventBody>): Promise<FaxEventOutcome> {
  const { fax } = body;
  const prior = await storedDelivery(practiceId, FAX_PARTNER_ID, fax.id);
  if (prior) return { ident: String(prior.ident ?? ''), noteId: (prior.noteId as string | null) ?? null, replayed: true };
  if (!body.file) throw new ValidationError('A received fax carries its file.', { file: 'is required' });
  const pdf = new Uint8Array(Buffer.from(body.file, 'base64'));
  if (Buffer.from(pdf.subarray(0, 5)).toString('latin1') !== '%PDF-') throw new ValidationError('A received fax is a PDF.', { file: 'must be a PDF' });
  const from = normalizePhone(fax.from ?? '') ?? fax.from ?? '';
  const to = normalizePhone(fax.to ?? '') ?? fax.to ?? '';
  const matches = from
    ? (await queryPatientsByName(practiceId, 'active')).filter((p) => p.primaryPhoneNumber === from || (p.phones ?? []).some((ph) => ph.number === from))
    : [];
  const patient = matches.length === 1 ? matches[0]! : null;
  const at = new Date().toISOString();
  const ident = randomUUID();
  const fileKey = `${FILES_PREFIX}${patient ? `${patient.id}/faxes` : 'unmatched-faxes'}/received-${fax.id}.pdf`;
  await s3ObjectsFromEnv().putObject({ bucket: filesBucket(), key: fileKey }, pdf, { contentType: 'application/pdf' });
  let noteId: string | null = null;
  if (patient) {
    const note = externalNote(
      {
        noteType: 'FAX',
        status: 'DELIVERED',
        signed: null,
        eventTimestamp: at,
        patientId: patient.id,
        data: { direction: 'INBOUND', faxIdent: ident, from, to, text: `Fax received from ${from}`, pages: fax.numberOfPages ?? null, deliveryId: fax.id },
        partnerId: FAX_PARTNER_ID,
        authorName: 'Fax',
      },
      at,
    );
    note.files = [{ key: fileKey, name: 'fax.pdf', contentType: 'application/pdf' }] as typeof note.files;
    const outcome = await writeDeliveredNote(practiceId, FAX_PARTNER_ID, fax.id, note, at);
    if (outcome.replayed) return { ident: '', noteId: outcome.noteId, replayed: true };
    noteId = note.noteId;
  } else {
    try {
      await putDeliveryOnce(practiceId, FAX_PARTNER_ID, fax.id, at, { ident });
    } catch {
      return { ident, noteId: null, replayed: true };
    }
  }
  const record: Fax = {
    ident,
    faxId: fax.id,
    direction: 'INBOUND',
    status: 'COMPLETED',
    sender: from,
    recipient: to,
    recipientName: null,
    patientId: patient?.id ?? null,
    patientName: patient ? fullName(patient) : null,
    sourceNoteId: null,
    faxNoteId: noteId,
    fileKey,
    pages: fax.numberOfPages ?? null,
    coverText: null,
    errorMessage: null,
    read: false,
    attempts: 1,
    createdAt: at,
    updatedAt: at,
  };
  await putFax(practiceId, record);
  const actor = faxActor(practiceId);
  await writeAudit(actor, { action: 'create', entity: 'fax', entityId: ident, ...(patient ? { patientId: patient.id } : {}) });
  const text = patient ? `Fax received from ${from} for ${fullName(patient)}` : `Fax received from ${from}`;
  await createNotification(
    practiceId,
    {
      notificationId: `faxin_${fax.id}`,
      notificationType: 'FAX',
      notificationStatus: 'UNREAD',
      sourceId: ident,
      relatedTo: noteId,
      patientId: patient?.id ?? null,
      text,
      data: {
        messageId: ident,
        text,
        faxNumber: from,
        faxCsid: from,
        faxCallerId: from,
        s3Path: fileKey,
        faxId: fax.id,
        noteId,
        patientId: patient?.id ?? null,
      },
    },
    { userId: `partner:${FAX_PARTNER_ID}` },
  );
  return { ident, noteId, replayed: false };
}

/**
 * A Sinch callback as it arrives: the practice's token in the URL (Sinch signs nothing), then the
 * body in either content type Sinch uses. A repeated delivery (Sinch retries until it gets 200)
 * changes nothing.
 */
export async function handleFaxCallback(
  practiceId: string,
  partnerId: string,
  key: string | null,
  token: string | undefined,
  contentType: string,
  body: Uint8Array,
): Promise<FaxEventOutcome> {
  if (partnerId !== FAX_PARTNER_ID) throw new NotFoundError('Unknown partner');
  if (!verifyFaxCallbackToken(key, token)) throw new UnauthorizedError(PARTNER_MESSAGES.badSignature);
  let parsed: unknown;
  try {
    parsed = await parseFaxCallback(contentType, body);
  } catch {
    throw new ValidationError('The fax callback is not JSON or a form.');
  }
  return applyFaxEvent(practiceId, partnerId, parsed);
}

export async function applyFaxEvent(practiceId: string, partnerId: string, raw: unknown): Promise<FaxEventOutcome> {
  // Another partner's valid signature is not the fax vendor's.
  if (partnerId !== FAX_PARTNER_ID) throw new NotFoundError('Unknown partner');
  const body = parseOrThrow(FaxEventBody, raw, 'body');
  if (body.event === 'FAX_COMPLETED') return completed(practiceId, body.fax);
  if (body.event === 'INCOMING_FAX') return incoming(practiceId, body);
  throw new ValidationError(`Unknown fax event ${body.event.slice(0, 40)}`);
}

/** GET /v1/notes/faxes?direction=inbound|all: the FAX notes the practice's faxes left in charts, newest first. */
export const FaxNotesQuery = z.object({
  direction: z._default(z.enum(['inbound', 'all']), 'all'),
  offset: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(FAX_LIST_MAX_LIMIT)), FAX_LIST_DEFAULT_LIMIT),
});

export async function faxNotes(auth: AuthContext, q: z.infer<typeof FaxNotesQuery>): Promise<{ notes: Note[]; total: number; offset: number; limit: number }> {
  const wanted = q.offset + q.limit;
  const paged = await listFaxNotePage(auth.practiceId, q.direction === 'all' ? ['INBOUND', 'OUTBOUND'] : ['INBOUND'], wanted);
  const faxes =
    paged?.faxes ??
    (await listFaxes(auth.practiceId))
      .filter((f) => f.faxNoteId && (q.direction === 'all' || f.direction === 'INBOUND'))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const page = faxes.slice(q.offset, wanted);
  const notes = (await Promise.all(page.map((f) => getNote(auth.practiceId, f.faxNoteId!)))).filter((n): n is Note => !!n && n.status !== 'DELETED');
  await writeAudit(auth, { action: 'list', entity: 'NOTE' });
  return { notes, total: paged?.total ?? faxes.length, offset: q.offset, limit: q.limit };
}

export const FAX_NOTES_ROUTE = route({ query: FaxNotesQuery, run: ({ auth, query }) => faxNotes(auth, query) });
