import * as z from 'zod';
import { jsonSize, LIMITS, openDataMessage } from '../limits.js';
import { NOTE_STATUSES, NOTE_TYPES, NOTES_PAGE_SIZE, type NoteStatus, type NoteType } from './note-constants.js';

/** A note's data as UTF-8 JSON bytes: leaves room in the 400 KB item for the rest of the note. */
const NOTE_DATA_MAX = 300_000;

const idText = () => z.string().trim().min(1).max(LIMITS.id);
const shortText = () => z.string().max(LIMITS.shortText);
const noteText = () => z.string().max(LIMITS.noteText, `Text must be at most ${LIMITS.noteText} characters`);

export const NoteTypeSchema = z.enum(NOTE_TYPES, { error: 'Unknown note type' });
export const NoteStatusSchema = z.enum(NOTE_STATUSES, { error: 'Unknown note status' });

export const NoteFile = z.object({
  key: z.string().min(1).max(LIMITS.fileKey + 100),
  name: z.string().min(1).max(LIMITS.shortText),
  contentType: z.string().max(200).optional(),
  size: z.number().int().nonnegative().optional(),
});
export type NoteFile = z.infer<typeof NoteFile>;

export const NotePerson = z.object({ userId: z.string().max(LIMITS.id), name: shortText(), email: shortText().optional() });
export type NotePerson = z.infer<typeof NotePerson>;

export const Addendum = z.object({
  text: noteText(),
  formattedText: noteText(),
  author: NotePerson,
  timestamp: z.string().max(40),
});
export type Addendum = z.infer<typeof Addendum>;

/**
 * Note data is open per type: every note may carry text, formattedText and transcriptionId;
 * EMAIL adds subject/to/from, VITALS the vitals fields (shared/notes/vitals.ts). The server
 * validates the part each type needs (see noteDataSchemaFor).
 */
export const NoteData = z
  .object({
    text: noteText().optional(),
    formattedText: noteText().optional(),
    transcriptionId: idText().optional(),
    subject: shortText().optional(),
    to: shortText().optional(),
    from: shortText().optional(),
    addenda: z.array(Addendum).max(200).optional(),
    sentAt: z.string().max(40).optional(),
  })
  .catchall(z.unknown())
  // The note is one item (400 KB at most): the open part of its data is bounded as a whole.
  .refine((v) => jsonSize(v) <= NOTE_DATA_MAX, openDataMessage('data', NOTE_DATA_MAX));
export type NoteData = z.infer<typeof NoteData>;

export const Note = z.object({
  noteId: z.string(),
  noteType: NoteTypeSchema,
  status: NoteStatusSchema,
  /** When the note was signed (ISO), null until then. */
  signed: z.string().nullable(),
  /** The clinical date of the note (date picker), ISO. */
  eventTimestamp: z.string(),
  /** Last change, ISO. */
  timestamp: z.string(),
  createdAt: z.string(),
  data: NoteData,
  patientId: z.string().nullable(),
  /** Locked: hidden from the patient portal. */
  hidden: z.boolean(),
  files: z.array(NoteFile),
  author: NotePerson,
  onBehalfOf: z.string().nullable(),
  /** Optimistic lock: every update sends the version it read; the server bumps it. */
  noteVersion: z.number().int(),
  signedBy: NotePerson.nullable().optional(),
  /** The status a DELETED note had, so an admin's restore returns it there. */
  deletedFrom: NoteStatusSchema.nullable().optional(),
});
export type Note = z.infer<typeof Note>;

const version = z.number({ error: 'noteVersion is required' }).int().nonnegative();
const isoDateTime = z.string().max(40).refine((v) => !Number.isNaN(Date.parse(v)), 'Must be a date and time');
const patientId = z.string().trim().min(1).max(64);
const onBehalfOf = z.string().max(LIMITS.id).nullable().optional();

/** POST /v2/notes. noteId 'new' creates with a generated id. */
export const CreateNoteBody = z.object({
  noteId: z.literal('new', { error: "noteId must be 'new'" }).optional(),
  noteType: NoteTypeSchema,
  status: NoteStatusSchema.optional(),
  data: NoteData.optional(),
  author: NotePerson.partial().optional(),
  noteVersion: z.number().int().optional(),
  patientId: patientId.nullable().optional(),
  eventTimestamp: isoDateTime.optional(),
  files: z.array(NoteFile).max(100).optional(),
  hidden: z.boolean().optional(),
  onBehalfOf,
});
export type CreateNoteBody = z.infer<typeof CreateNoteBody>;

/** POST /v1/notes/{noteId}: save an unsigned note. */
export const UpdateNoteBody = z.object({
  noteVersion: version,
  data: NoteData.optional(),
  patientId: patientId.nullable().optional(),
  eventTimestamp: isoDateTime.optional(),
  files: z.array(NoteFile).max(100).optional(),
  onBehalfOf,
});
export type UpdateNoteBody = z.infer<typeof UpdateNoteBody>;

/** POST /v1/notes/{noteId}/sign: optional final data is saved and signed in one step. */
export const SignNoteBody = UpdateNoteBody;
export type SignNoteBody = UpdateNoteBody;

/** POST /v1/notes/{noteId}/update-signed-note */
export const UpdateSignedNoteBody = z.object({ noteVersion: version, text: noteText(), formattedText: noteText() });
export type UpdateSignedNoteBody = z.infer<typeof UpdateSignedNoteBody>;

/** POST /v1/notes/{noteId}/addend */
export const AddendNoteBody = z.object({ noteVersion: version, text: noteText(), formattedText: noteText() });
export type AddendNoteBody = z.infer<typeof AddendNoteBody>;

/** POST /v1/notes/{noteId}/change-patient */
export const ChangePatientBody = z.object({ noteVersion: version, patientId });
export type ChangePatientBody = z.infer<typeof ChangePatientBody>;

/** POST /v1/notes/{noteId}/toggle-access, /send */
export const VersionOnlyBody = z.object({ noteVersion: version });
export type VersionOnlyBody = z.infer<typeof VersionOnlyBody>;

/** POST /v1/notes/{noteId}/assign */
export const AssignDraftBody = z.object({ userId: z.string().trim().max(LIMITS.id).optional().nullable() });
export type AssignDraftBody = z.infer<typeof AssignDraftBody>;

export const NoteIdParams = z.object({ noteId: z.string().trim().min(1).max(80) });

/** DELETE /v1/notes/{noteId}?noteVersion=N (optional; when given a stale version is refused). */
export const DeleteNoteQuery = z.object({ noteVersion: z.coerce.number().int().nonnegative().optional() });

const csv = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .max(500)
    .optional()
    .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : undefined))
    .pipe(z.array(z.enum(values, { error: `Must be one of ${values.join(', ')}` })).optional());

/** GET /v2/notes: the timeline page. noteTypes and statuses are comma-separated. */
export const NotesPageQuery = z.object({
  patientId,
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(NOTES_PAGE_SIZE).default(NOTES_PAGE_SIZE),
  noteTypes: csv(NOTE_TYPES),
  statuses: csv(NOTE_STATUSES),
  currentNoteId: z.string().max(80).optional(),
});
export type NotesPageQuery = z.infer<typeof NotesPageQuery>;

export interface NotesPage {
  notes: Note[];
  total: number;
  offset: number;
  limit: number;
  /** The note named by currentNoteId when the filters leave it out, so an open window keeps its note. */
  currentNote?: Note;
}

const boolParam = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

/** GET /v1/notes?patientId&noteType  |  ?patientId&startDate&endDate&excludeFormattedText */
export const NotesListQuery = z.object({
  patientId,
  noteType: NoteTypeSchema.optional(),
  startDate: isoDateTime.optional(),
  endDate: isoDateTime.optional(),
  excludeFormattedText: boolParam,
});
export type NotesListQuery = z.infer<typeof NotesListQuery>;

/** POST /v1/s3/files */
export const PresignUploadBody = z.object({
  key: z.string().trim().min(1).max(LIMITS.fileKey),
  contentType: z.string().trim().min(1).max(200),
  size: z.number().int().nonnegative().optional(),
});
export type PresignUploadBody = z.infer<typeof PresignUploadBody>;

export type { NoteStatus, NoteType };
