import { NOTE_CREATE_ERROR } from './note-create-error.js';

/** Note enumerations and limits shared by the notes API and the note windows (spec notes §3, §4, §9). */
export const NOTE_TYPES = [
  'NOTE',
  'DOCUMENT',
  'FAX',
  'EMAIL',
  'PHONE_CALL',
  'FORM',
  'LAB',
  'RX',
  'VITALS',
  'PARTNER',
  'SMS',
  'SMS_LOG',
  'SALES',
  'RX_VERADIGM',
  'RX_DOSESPOT',
  'ECONSULT_THEA',
  'STICKY',
  'COPILOT_CHAT',
] as const;
export type NoteType = (typeof NOTE_TYPES)[number];

export const NOTE_STATUSES = ['DRAFT', 'WRITTEN', 'SIGNED', 'ADDENDED', 'SENT', 'DELIVERED', 'FULFILLED', 'FAILED', 'HIDDEN', 'TEMPLATE', 'DELETED'] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

/** Types the note windows of this release create and save through the notes API. */
export const EDITABLE_NOTE_TYPES = [
  'NOTE',
  'DOCUMENT',
  'EMAIL',
  'PHONE_CALL',
  'SMS_LOG',
  'STICKY',
  'VITALS',
  'SALES',
  'RX',
] as const satisfies readonly NoteType[];

/** Only these types have the lock (hide from the patient portal) toggle. */
export const LOCKABLE_NOTE_TYPES = ['DOCUMENT', 'NOTE', 'PHONE_CALL', 'LAB'] as const satisfies readonly NoteType[];
export const isLockable = (type: NoteType): boolean => (LOCKABLE_NOTE_TYPES as readonly NoteType[]).includes(type);

export type StatusTone = 'success' | 'danger' | 'info' | 'dark' | 'warning';
export const NOTE_STATUS_TONE: Record<NoteStatus, StatusTone> = {
  ADDENDED: 'success',
  SIGNED: 'success',
  DELIVERED: 'success',
  FULFILLED: 'success',
  DELETED: 'danger',
  HIDDEN: 'danger',
  FAILED: 'danger',
  DRAFT: 'info',
  TEMPLATE: 'dark',
  WRITTEN: 'warning',
  SENT: 'warning',
};

/** Statuses that count as signed: addendum and update-signed apply only to these. */
export const SIGNED_STATUSES = ['SIGNED', 'ADDENDED'] as const satisfies readonly NoteStatus[];
export const isSignedStatus = (s: NoteStatus): boolean => (SIGNED_STATUSES as readonly NoteStatus[]).includes(s);

/** Statuses whose content is still editable by a plain save. */
export const EDITABLE_STATUSES = ['DRAFT', 'WRITTEN', 'HIDDEN'] as const satisfies readonly NoteStatus[];
export const isEditableStatus = (s: NoteStatus): boolean => (EDITABLE_STATUSES as readonly NoteStatus[]).includes(s);

export const NOTES_PAGE_SIZE = 50;
export const DEFAULT_TIMELINE_NOTE_TYPES: readonly NoteType[] = ['NOTE'];
export const DEFAULT_TIMELINE_STATUSES: readonly NoteStatus[] = ['SIGNED', 'ADDENDED'];

export const WILDCARD = '***';

export const NOTE_TIMING = {
  autosaveDebounceMs: 5_000,
  autosaveMaxWaitMs: 30_000,
  editorChangeDebounceMs: 350,
  editorChangeMaxWaitMs: 3_000,
  emailSubjectDebounceMs: 250,
  resultCloseDelayMs: 2_000,
  templateSuggestionDelayMs: 50,
} as const;

export const NOTE_LAYOUT = {
  mobileBreakpointPx: 767,
  windowHeightDivisor: 1.25,
  windowWidthDivisor: 2.1,
  editorMinHeightPx: 48,
  editorMaxHeightPx: 120,
  datePickerMinYear: 2000,
} as const;

/** Upload rules for document attachments (spec chart-data §5 upload, notes §9). */
export const UPLOAD_MAX_BYTES = 250_000_000;
export const ATTACHMENT_MAX_BYTES = 5_000_000;

export type EmailFailureReason = 'rejected' | 'throttled' | 'paused' | 'unavailable' | 'not-configured';
const EMAIL_FAILURE_REASON: Record<EmailFailureReason, string> = {
  rejected: 'The mail service refused the message; check the To and From addresses.',
  throttled: 'The mail service is busy; try again in a minute.',
  paused: 'Sending email is paused for this practice; ask your practice admin.',
  unavailable: 'The mail service did not answer; try again later.',
  'not-configured': 'Email sending is not set up for this practice; ask your practice admin.',
};

/** Every message the notes API and note windows use; the spec's words where it fixes them. */
export const NOTE_MESSAGES = {
  wildcard: 'There is still a wildcard in the note',
  addendUnsigned: 'Cannot addend unsigned note',
  missingPatient: 'Missing patient associated with note.',
  noData: 'The note has no content to save.',
  emptyText: 'The note text is empty.',
  staleVersion: 'This note was changed by someone else. Reload it to see the latest version.',
  signedReadOnly: 'A signed note can only be changed by an addendum or by updating the signed text.',
  alreadySigned: 'This note is already signed.',
  /** Spec notes §4: a signed prescription is deleted and written again. Here, not in rx.ts, so the notes cold start loads no prescription code. */
  rxSignedReadOnly: 'A signed prescription cannot be changed. Delete it and write a new one.',
  notSigned: 'Only a signed note can have its signed text updated.',
  notFound: 'Note not found',
  deleted: 'This note has been deleted',
  notDeleted: 'This note is not deleted',
  notLockable: 'Only document, note, phone call and lab notes can be locked.',
  noteTypeNotSupported: 'This note type cannot be saved here.',
  assignUserRequired: 'Please select a user to assign to.',
  assignNotDraft: 'Only a draft can be assigned.',
  userNotFound: 'User not found',
  subjectRequired: 'Subject is required',
  emailAlreadySent: 'This email has already been sent.',
  emailNotEmail: 'Only an email note can be sent.',
  missingPatientEmail: 'Missing patient email address.',
  emailSent: 'Email sent',
  /** Modelled on the spec's 'There was an error sending the form'; the reason says what to do next. */
  emailSendFailed: (kind: EmailFailureReason) => `There was an error sending the email. ${EMAIL_FAILURE_REASON[kind]} The note is kept and was not sent.`,
  unsupportedFile: 'This file is not a supported file format',
  fileTooLarge: 'This file is too large',
  saveError: 'There was an error saving the note.',
  changePatientError: 'There was an error changing the note patient.',
  createError: NOTE_CREATE_ERROR,
  deleteProgress: 'Deleting interaction',
  deleteSuccess: 'Successfully deleted interaction',
  deleteError: 'There was an error deleting the interaction',
  // Shell §8's words, which hold notes §8's as their start.
  assignProgress: (name: string) => `Assigning draft to ${name}`,
  assignSuccess: (name: string) => `Successfully assigned draft to ${name}`,
  assignError: 'There was an error while assigning the draft',
  errorSaving: (message: string) => `Error saving: ${message}`,
  statusError: (status: number, message: string) => `${status} Error: ${message}`,
} as const;
