/**
 * What the note endpoints answer beyond a single Note (note-schema.ts), read by the web client.
 * Kept apart so the notes Lambda, which builds these answers from the interfaces, does not bundle them.
 */
import * as z from '../zod.js';
import { Note } from './note-schema.js';

/** GET /v2/notes: one page of the patient's timeline. */
export const NotesPageAnswer = z.object({
  notes: z.array(Note),
  hasMore: z.boolean(),
  total: z.optional(z.number()),
  offset: z.number(),
  limit: z.number(),
  currentNote: z.optional(Note),
});

/** GET /v1/notes?patientId&noteType. */
export const NoteListAnswer = z.object({ notes: z.array(Note) });

/** POST /v1/notes/{noteId}/assign: the notification the assignee gets (the window reads none of it). */
export const DraftAssigned = z.object({ notification: z.object({ notificationId: z.string() }) });

/** A note printed as a PDF (GET /v1/notes/{noteId}/prescription-pdf, GET /v1/notes/labs/print). */
export const NotePdf = z.object({ fileName: z.string(), contentType: z.string(), base64: z.string() });

/** GET /v2/notes/labs/link/{patientId}/{code}: one analyte's values over time. */
export const LabTrendAnswer = z.object({
  code: z.string(),
  text: z.string(),
  points: z.array(
    z.object({
      noteId: z.string(),
      issued: z.string(),
      day: z.string(),
      value: z.number(),
      unit: z.optional(z.string()),
      interpretation: z.optional(z.string()),
      ranges: z.optional(z.array(z.object({ low: z.optional(z.number()), high: z.optional(z.number()) }))),
    }),
  ),
});

const SafetyWarning = z.object({
  id: z.string(),
  kind: z.enum(['allergy', 'interaction']),
  drug: z.string(),
  cause: z.string(),
  severity: z.string(),
  reaction: z.string(),
  because: z.string(),
  message: z.string(),
});

/** POST /v1/patients/{patientId}/drug-safety-check. */
export const DrugSafetyCheckAnswer = z.object({ drug: z.string(), ingredients: z.array(z.string()), warnings: z.array(SafetyWarning) });

/** GET /v1/patients/{patientId}/eprescribe-review: what the prescriber confirms before DoseSpot. */
export const EPrescribeReviewAnswer = z.object({
  allergies: z.array(z.object({ ident: z.string(), name: z.string(), severity: z.string(), reaction: z.string() })),
  medications: z.array(z.object({ ident: z.string(), name: z.string(), instructions: z.string() })),
});

/** POST /v1/patients/{patientId}/eprescribe-review. */
export const EPrescribeReviewConfirmed = z.object({ confirmedAt: z.string(), by: z.object({ userId: z.string(), name: z.string() }) });
