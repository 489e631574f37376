import * as z from '../zod.js';
import { jsonSize, LIMITS, openDataMessage } from '../limits.js';
import { NOTE_STATUSES, NOTE_TYPES, NOTES_PAGE_SIZE, type NoteStatus, type NoteType } from './note-constants.js';

/** A note's data as UTF-8 JSON bytes: leaves room in the 400 KB item for the rest of the note. */
const NOTE_DATA_MAX = 300_000;

const idText = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id));
const shortText = () => z.string().check(z.maxLength(LIMITS.shortText));
const noteText = () => z.string().check(z.maxLength(LIMITS.noteText, `Text must be at most ${LIMITS.noteText} characters`));

export const NoteTypeSchema = z.enum(NOTE_TYPES, { error: 'Unknown note type' });
export const NoteStatusSchema = z.enum(NOTE_STATUSES, { error: 'Unknown note status' });

export const NoteFile = z.object({
  key: z.string().check(z.minLength(1), z.maxLength(LIMITS.fileKey + 100)),
  name: z.string().check(z.minLength(1), z.maxLength(LIMITS.shortText)),
  contentType: z.optional(z.string().check(z.maxLength(200))),
  size: z.optional(z.number().check(z.int(), z.nonnegative())),
});
export type NoteFile = z.infer<typeof NoteFile>;

export const NotePerson = z.object({ userId: z.string().check(z.maxLength(LIMITS.id)), name: shortText(), email: z.optional(shortText()) });
export type NotePerson = z.infer<typeof NotePerson>;

export const Addendum = z.object({
  text: noteText(),
  formattedText: noteText(),
  author: NotePerson,
  timestamp: z.string().check(z.maxLength(40)),
});
export type Addendum = z.infer<typeof Addendum>;

/**
 * Note data is open per type: every note may carry text, formattedText and transcriptionId;
 * EMAIL adds subject/to/from, VITALS the vitals fields (shared/notes/vitals.ts). The server
 * validates the part each type needs (see noteDataSchemaFor).
 */
export const NoteData = z
  .catchall(
    z.object({
      text: z.optional(noteText()),
      formattedText: z.optional(noteText()),
      transcriptionId: z.optional(idText()),
      subject: z.optional(shortText()),
      to: z.optional(shortText()),
      from: z.optional(shortText()),
      addenda: z.optional(z.array(Addendum).check(z.maxLength(200))),
      sentAt: z.optional(z.string().check(z.maxLength(40))),
    }),
    z.unknown(),
  )
  .check(z.refine((v) => jsonSize(v) <= NOTE_DATA_MAX, openDataMessage('data', NOTE_DATA_MAX)));
export type NoteData = z.infer<typeof NoteData>;

export const Note = z.object({
  noteId: z.string(),
  noteType: NoteTypeSchema,
  status: NoteStatusSchema,
  /** When the note was signed (ISO), null until then. */
  signed: z.nullable(z.string()),
  /** The clinical date of the note (date picker), ISO. */
  eventTimestamp: z.string(),
  /** Last change, ISO. */
  timestamp: z.string(),
  createdAt: z.string(),
  data: NoteData,
  patientId: z.nullable(z.string()),
  /** Locked: hidden from the patient portal. */
  hidden: z.boolean(),
  files: z.array(NoteFile),
  author: NotePerson,
  onBehalfOf: z.nullable(z.string()),
  /** Optimistic lock: every update sends the version it read; the server bumps it. */
  noteVersion: z.number().check(z.int()),
  signedBy: z.optional(z.nullable(NotePerson)),
  /** The status a DELETED note had, so an admin's restore returns it there. */
  deletedFrom: z.optional(z.nullable(NoteStatusSchema)),
});
export type Note = z.infer<typeof Note>;

const version = z.number({ error: 'noteVersion is required' }).check(z.int(), z.nonnegative());
const isoDateTime = z.string().check(
  z.maxLength(40),
  z.refine((v) => !Number.isNaN(Date.parse(v)), 'Must be a date and time'),
);
const patientId = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));
const onBehalfOf = z.optional(z.nullable(z.string().check(z.maxLength(LIMITS.id))));

/** POST /v2/notes. noteId 'new' creates with a generated id. */
export const CreateNoteBody = z.object({
  noteId: z.optional(z.literal('new', { error: "noteId must be 'new'" })),
  noteType: NoteTypeSchema,
  status: z.optional(NoteStatusSchema),
  data: z.optional(NoteData),
  author: z.optional(z.partial(NotePerson)),
  noteVersion: z.optional(z.number().check(z.int())),
  patientId: z.optional(z.nullable(patientId)),
  eventTimestamp: z.optional(isoDateTime),
  files: z.optional(z.array(NoteFile).check(z.maxLength(100))),
  hidden: z.optional(z.boolean()),
  onBehalfOf,
});
export type CreateNoteBody = z.infer<typeof CreateNoteBody>;

/** POST /v1/notes/{noteId}: save an unsigned note. */
export const UpdateNoteBody = z.object({
  noteVersion: version,
  data: z.optional(NoteData),
  patientId: z.optional(z.nullable(patientId)),
  eventTimestamp: z.optional(isoDateTime),
  files: z.optional(z.array(NoteFile).check(z.maxLength(100))),
  onBehalfOf,
});
export type UpdateNoteBody = z.infer<typeof UpdateNoteBody>;

/**
 * POST /v1/notes/{noteId}/sign: optional final data is saved and signed in one step. timeZone
 * (the signer's, IANA) dates the signature line a template left in the note; UTC without it.
 */
export const SignNoteBody = z.extend(UpdateNoteBody, { timeZone: z.optional(z.string().check(z.trim(), z.maxLength(64))) });
export type SignNoteBody = z.infer<typeof SignNoteBody>;

/** POST /v1/notes/{noteId}/update-signed-note */
export const UpdateSignedNoteBody = z.object({ noteVersion: version, text: noteText(), formattedText: noteText() });
export type UpdateSignedNoteBody = z.infer<typeof UpdateSignedNoteBody>;

/** POST /v1/notes/{noteId}/addend */
export const AddendNoteBody = z.object({
  noteVersion: version,
  text: noteText(),
  formattedText: noteText(),
  timeZone: z.optional(z.string().check(z.trim(), z.maxLength(64))),
});
export type AddendNoteBody = z.infer<typeof AddendNoteBody>;

/** POST /v1/notes/{noteId}/change-patient */
export const ChangePatientBody = z.object({ noteVersion: version, patientId });
export type ChangePatientBody = z.infer<typeof ChangePatientBody>;

/** POST /v1/notes/{noteId}/toggle-access, /send */
export const VersionOnlyBody = z.object({ noteVersion: version });
export type VersionOnlyBody = z.infer<typeof VersionOnlyBody>;

/** POST /v1/notes/{noteId}/assign */
export const AssignDraftBody = z.object({ userId: z.nullable(z.optional(z.string().check(z.trim(), z.maxLength(LIMITS.id)))) });
export type AssignDraftBody = z.infer<typeof AssignDraftBody>;

export const NoteIdParams = z.object({ noteId: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)) });

/** DELETE /v1/notes/{noteId}?noteVersion=N (optional; when given a stale version is refused). */
export const DeleteNoteQuery = z.object({ noteVersion: z.optional(z.coerce.number().check(z.int(), z.nonnegative())) });

const csv = <T extends string>(values: readonly [T, ...T[]]) =>
  z.pipe(
    z.pipe(
      z.optional(z.string().check(z.maxLength(500))),
      z.transform((v) =>
        v
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : undefined,
      ),
    ),
    z.optional(z.array(z.enum(values, { error: `Must be one of ${values.join(', ')}` }))),
  );

/** GET /v2/notes: the timeline page. noteTypes and statuses are comma-separated. */
export const NotesPageQuery = z.object({
  patientId,
  offset: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(NOTES_PAGE_SIZE)), NOTES_PAGE_SIZE),
  noteTypes: csv(NOTE_TYPES),
  statuses: csv(NOTE_STATUSES),
  currentNoteId: z.optional(z.string().check(z.maxLength(80))),
});
export type NotesPageQuery = z.infer<typeof NotesPageQuery>;

export interface NotesPage {
  notes: Note[];
  /** A next page exists. */
  hasMore: boolean;
  /**
   * How many notes match the filters, given when the server's read reached the last of them (it
   * reads a patient's notes up to the page, not all of them).
   */
  total?: number;
  offset: number;
  limit: number;
  /** The note named by currentNoteId when the filters leave it out, so an open window keeps its note. */
  currentNote?: Note;
}

const boolParam = z.pipe(
  z.optional(z.enum(['true', 'false'])),
  z.transform((v) => v === 'true'),
);

/** GET /v1/notes?patientId&noteType  |  ?patientId&startDate&endDate&excludeFormattedText */
export const NotesListQuery = z.object({
  patientId,
  noteType: z.optional(NoteTypeSchema),
  startDate: z.optional(isoDateTime),
  endDate: z.optional(isoDateTime),
  excludeFormattedText: boolParam,
});
export type NotesListQuery = z.infer<typeof NotesListQuery>;

export { PresignUploadBody } from './presign-upload.js';

export type { NoteStatus, NoteType };
