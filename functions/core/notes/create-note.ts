import { randomUUID } from 'node:crypto';
import { initialStatus } from '../../../shared/notes/note-rules.js';
import { isExternalNoteType, PARTNER_MESSAGES } from '../../../shared/partners/partner-constants.js';
import type { CreateNoteBody, Note } from '../../../shared/notes/note-schema.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ValidationError } from '../../lib/errors.js';
import { assertVitalsInRange, auditNote, normalizeData, personOf, requirePatient } from './note-common.js';
import { insertNote } from '../../data/notes/note-repository.js';

/** Statuses a client may create a note with; signing and sending happen through their own calls. */
const CREATABLE = new Set(['DRAFT', 'HIDDEN', 'DELIVERED', 'WRITTEN']);

/**
 * POST /v2/notes with noteId 'new': a note with a generated id. The palette creates a hidden DRAFT
 * with no patient yet; an EMAIL starts DRAFT with From = the user's address and To = the patient's.
 */
export async function createNote(auth: AuthContext, body: CreateNoteBody, now = new Date(), opts: { reviewUnusualVitals?: boolean } = {}): Promise<Note> {
  if (isExternalNoteType(body.noteType)) throw new ValidationError(PARTNER_MESSAGES.externalCreate, { noteType: PARTNER_MESSAGES.externalCreate });
  const status = body.status ?? initialStatus(body.noteType);
  if (!CREATABLE.has(status)) throw new ValidationError(`A note cannot be created as ${status}`, { status: 'is not allowed' });
  const patient = body.patientId ? await requirePatient(auth.practiceId, body.patientId) : null;
  const at = now.toISOString();
  let data = { ...(body.data ?? {}) };
  if (body.noteType === 'EMAIL') {
    data = { subject: '', ...data, from: data.from || auth.email, to: data.to || patient?.email || '' };
  }
  const normalized = normalizeData(body, data);
  assertVitalsInRange({ noteType: body.noteType, data: normalized }, opts.reviewUnusualVitals);
  const note: Note = {
    noteId: randomUUID(),
    noteType: body.noteType,
    status: body.noteType === 'SMS_LOG' ? 'DELIVERED' : status,
    signed: null,
    eventTimestamp: body.eventTimestamp ? new Date(body.eventTimestamp).toISOString() : at,
    timestamp: at,
    createdAt: at,
    data: normalized,
    patientId: patient?.id ?? null,
    hidden: body.hidden ?? false,
    files: body.files ?? [],
    author: await personOf(auth),
    onBehalfOf: body.onBehalfOf ?? null,
    noteVersion: 1,
    signedBy: null,
  };
  await insertNote(auth.practiceId, note);
  await auditNote(auth, 'create', note);
  return note;
}
