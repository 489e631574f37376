import type { Patient } from '../../../shared/patients/patient-schema.js';
import { isSignedStatus, NOTE_MESSAGES } from '../../../shared/notes/note-constants.js';
import { noteSaveProblem } from '../../../shared/notes/note-rules.js';
import type { Note, NoteData, NotePerson } from '../../../shared/notes/note-schema.js';
import { normalizeVitals, VitalsInput } from '../../../shared/notes/vitals.js';
import { fieldErrorsOf, impossibleVitals, unconfirmedMessage, unconfirmedVitals } from '../../../shared/notes/vitals-ranges.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAudit, type AuditAction } from '../../lib/audit/audit-repository.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { getPatient, PATIENT_NOT_FOUND } from '../../data/patients/patient-repository.js';
import { getUser } from '../../data/users/user-repository.js';
import { assertVersion, requireNote } from '../../data/notes/note-repository.js';

/**
 * The caller as a note author or signer. The display name comes from the practice's USER# item:
 * a token need not carry given and family names (the local pool's does not), and the practice's
 * record is the name a chart should show. The token's name (or email) is only the fallback.
 */
export async function personOf(auth: AuthContext): Promise<NotePerson> {
  const user = await getUser(auth.practiceId, auth.userId);
  return { userId: auth.userId, name: user?.name.trim() || auth.name, email: auth.email };
}

export function assertNotDeleted(note: Note): void {
  if (note.status === 'DELETED') throw new NotFoundError(NOTE_MESSAGES.deleted);
}

export async function requirePatient(practiceId: string, patientId: string): Promise<Patient> {
  const patient = await getPatient(practiceId, patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  return patient;
}

/** Vitals are stored as numbers with fixed units and the computed BMI; other types keep their data. */
export function normalizeData(note: Pick<Note, 'noteType'>, data: NoteData): NoteData {
  if (note.noteType !== 'VITALS') return data;
  const parsed = VitalsInput.safeParse(data);
  return parsed.success ? { ...normalizeVitals(parsed.data) } : data;
}

/**
 * Refuses a save or sign with the shared rule's message (no patient, no data, invalid, empty, wildcard).
 * `patientRead` is the note's patient read already under way, when the caller knew its id before the note.
 */
export async function assertSavable(practiceId: string, note: Note, now: Date, patientRead?: Promise<Patient | null>): Promise<Patient> {
  const patient = note.patientId ? await (patientRead ?? getPatient(practiceId, note.patientId)) : null;
  if (note.patientId && !patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  const problem = noteSaveProblem(note, patient?.dob ?? null, now);
  if (problem) throw new ValidationError(problem.message, problem.fieldErrors);
  assertVitalsConfirmed(note);
  return patient!;
}

/**
 * Every way vitals are entered checks their range: an impossible value is refused with the range,
 * an unusual one unless the clinician confirmed it at that value (data.confirmedVitals, kept on
 * the note so the chart shows it was confirmed). `review` leaves unusual values for the clinician
 * to confirm in the draft (the scribe's spoken vitals, which nobody has looked at yet).
 */
export function assertVitalsInRange(note: Pick<Note, 'noteType' | 'data'>, review = false): void {
  if (note.noteType !== 'VITALS') return;
  const impossible = impossibleVitals(note.data as Record<string, unknown>);
  if (impossible.length) throw new ValidationError(impossible.map((f) => f.message).join(' '), fieldErrorsOf(impossible));
  if (!review) assertVitalsConfirmed(note);
}

function assertVitalsConfirmed(note: Pick<Note, 'noteType' | 'data'>): void {
  if (note.noteType !== 'VITALS') return;
  const pending = unconfirmedVitals(note.data as Record<string, unknown>);
  if (pending.length) throw new ValidationError(pending.map(unconfirmedMessage).join(' '), fieldErrorsOf(pending, unconfirmedMessage));
}

export function auditNote(auth: AuthContext, action: AuditAction, note: Pick<Note, 'noteId' | 'patientId'>): Promise<void> {
  return writeAudit(auth, { action, entity: 'NOTE', entityId: note.noteId, ...(note.patientId ? { patientId: note.patientId } : {}) });
}

/**
 * The note a signature that writes more than the note (a sale's stock, a prescription's dispense)
 * may sign: not deleted, not signed yet, and at the version the signer saw.
 */
export async function requireSignableNote(practiceId: string, noteId: string, seenVersion: number): Promise<Note> {
  const current = await requireNote(practiceId, noteId);
  if (current.status === 'DELETED') throw new NotFoundError(NOTE_MESSAGES.deleted);
  if (isSignedStatus(current.status) || current.signed) throw new ValidationError(NOTE_MESSAGES.alreadySigned);
  assertVersion(current, seenVersion);
  return current;
}
