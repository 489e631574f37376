import * as z from '../zod.js';
import { emailSaveError } from './email.js';
import { isEditableStatus, isSignedStatus, NOTE_MESSAGES, type NoteStatus, type NoteType } from './note-constants.js';
import type { NoteData, NoteFile } from './note-schema.js';
import { hasAnyVital, normalizeVitals, showsHeadCircumference, VITALS_MESSAGES, VitalsInput } from './vitals.js';
import { fieldErrorsOf, impossibleVitals } from './vitals-ranges.js';
import { hasWildcard } from './wildcard.js';

/** Kept here (not imported from shared/sales) so the note rules load no other schema. */
export const SALES_NO_ITEMS = 'Add at least one item to the sale.';

export interface SaveCandidate {
  noteType: NoteType;
  patientId: string | null | undefined;
  data: NoteData | null | undefined;
  files?: readonly NoteFile[] | null;
}

export interface SaveProblem {
  message: string;
  fieldErrors: Record<string, string>;
}

/** Text without markup or whitespace: a note of only empty paragraphs counts as empty. */
export function plainText(value: string | null | undefined): string {
  return (value ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .trim();
}

const problem = (message: string, field?: string): SaveProblem => ({ message, fieldErrors: field ? { [field]: message } : {} });

/**
 * Why a note cannot be saved or signed, or null. Shared so the window disables Save for the same
 * reasons the server refuses it: no patient, no data, invalid data, empty text, a wildcard left.
 */
export function noteSaveProblem(n: SaveCandidate, patientDob?: string | null, on: Date = new Date()): SaveProblem | null {
  if (!n.patientId) return problem(NOTE_MESSAGES.missingPatient, 'patientId');
  const data = n.data;
  if (!data || Object.keys(data).length === 0) return problem(NOTE_MESSAGES.noData, 'data');
  if (hasWildcard(data.formattedText) || hasWildcard(data.text)) return problem(NOTE_MESSAGES.wildcard, 'text');
  switch (n.noteType) {
    case 'VITALS': {
      const parsed = VitalsInput.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return problem(issue.message, String(issue.path[0] ?? 'data'));
      }
      const v = normalizeVitals(parsed.data);
      if (!hasAnyVital(v)) return problem(VITALS_MESSAGES.empty, 'data');
      const impossible = impossibleVitals(v);
      if (impossible.length) return { message: impossible.map((f) => f.message).join(' '), fieldErrors: fieldErrorsOf(impossible) };
      if (v.headCircumference != null && !showsHeadCircumference(patientDob, on)) {
        return problem(VITALS_MESSAGES.headCircumferenceAge, 'headCircumference');
      }
      return null;
    }
    case 'EMAIL': {
      const subject = emailSaveError(data);
      if (subject) return problem(subject, 'subject');
      if (!plainText(data.text) && !plainText(data.formattedText)) return problem(NOTE_MESSAGES.emptyText, 'text');
      return null;
    }
    // A prescription's fields are checked by its own schema (shared/notes/rx-schema.ts), which the API's
    // prescription code and the window load; it has no text of its own.
    case 'RX':
      return null;
    case 'SALES':
      return Array.isArray(data.items) && data.items.length > 0 ? null : problem(SALES_NO_ITEMS, 'items');
    case 'DOCUMENT':
      if (!plainText(data.text) && !plainText(data.formattedText) && !(n.files && n.files.length)) {
        return problem(NOTE_MESSAGES.emptyText, 'text');
      }
      return null;
    default:
      if (!plainText(data.text) && !plainText(data.formattedText)) return problem(NOTE_MESSAGES.emptyText, 'text');
      return null;
  }
}

/**
 * Whether a plain save may change the note (spec notes §7): drafts, written emails and hidden notes,
 * plus a delivered SMS log, since an SMS log is saved as delivered. Any other delivered note has gone
 * out; a signed note changes only by addendum or update-signed. The window and the API both ask this.
 */
export function canEditNote(note: { noteType: NoteType; status: NoteStatus; signed?: string | null }): boolean {
  if (note.signed || isSignedStatus(note.status)) return false;
  return isEditableStatus(note.status) || (note.noteType === 'SMS_LOG' && note.status === 'DELIVERED');
}

/** The status a successful save leaves: drafts stay drafts, an email becomes WRITTEN, an SMS log DELIVERED. */
export function statusAfterSave(type: NoteType, current: NoteStatus): NoteStatus {
  if (type === 'SMS_LOG') return 'DELIVERED';
  if (type === 'EMAIL' && (current === 'DRAFT' || current === 'WRITTEN')) return 'WRITTEN';
  return current;
}

/** The status signing leaves: delivered notes stay delivered, forms keep theirs, the rest become SIGNED. */
export function statusAfterSign(type: NoteType, current: NoteStatus): NoteStatus {
  if (current === 'DELIVERED' || type === 'FORM') return current;
  return 'SIGNED';
}

/** The status a note is created with when the body does not say. */
export function initialStatus(type: NoteType): NoteStatus {
  return type === 'SMS_LOG' ? 'DELIVERED' : 'DRAFT';
}

export const VitalsData = VitalsInput;
export type VitalsData = z.infer<typeof VitalsInput>;
