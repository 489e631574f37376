/**
 * The AI scribe's contract between the browser, the transcription routes and the pipeline
 * (spec notes-and-interactions §3 Transcription, §7 Transcription and AI, §9).
 */
import * as z from '../zod.js';
import { LIMITS } from '../limits.js';
import { NOTE_MESSAGES } from '../notes/note-constants.js';

/** Spec §3: every status a transcription reports, in pipeline order, then the terminal ones. */
export const TRANSCRIPTION_STATUSES = [
  'not_started',
  'queued',
  'processing',
  'processing_audio_file',
  'processing_transcription',
  'processing_formatting_text',
  'processing_after_visit_summary',
  'completed',
  'failed',
  'cancelled',
] as const;
export type TranscriptionStatus = (typeof TRANSCRIPTION_STATUSES)[number];
export const TERMINAL_TRANSCRIPTION_STATUSES: readonly TranscriptionStatus[] = ['completed', 'failed', 'cancelled'];

/** Spec §9: recording and transcription constants. */
export const RECORDING = {
  limitSeconds: 5400,
  warningBeforeSeconds: 300,
  batchIntervalMs: 10_000,
  audioBitsPerSecond: 63_600,
  keepAliveIntervalMs: 10_000,
  timerTickMs: 1000,
} as const;
export const TRANSCRIPTION_POLL = { intervalMs: 2000, limitMs: 900_000 } as const;

/** Spec §5: audio upload. */
export const AUDIO_UPLOAD = {
  extensions: ['.mp3', '.wav', '.webm', '.ogg', '.m4a'],
  maxBytes: 250_000_000,
} as const;

/** Spec §9 Copilot templates: SOAP_NOTE by default; none or VISIT_SUMMARY besides. */
export const COPILOT_TEMPLATE_TYPES = ['SOAP_NOTE', 'VISIT_SUMMARY'] as const;
export type CopilotTemplateType = (typeof COPILOT_TEMPLATE_TYPES)[number];

export const AI_MESSAGES = {
  savingRecordingFailed: 'Error saving recording to the cloud, please download the recording and upload it to begin the transcription process.',
  creationUnsuccessful: 'AI Note Creation Unsuccessful',
} as const;

const id = z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id));

/**
 * Browser recordings are uploaded in 10 s chunks under
 * recordings/patients/<patientId>/<noteId>/<sessionId>/chunk-<index, 6 digits>.webm,
 * so the folder (filesPath) names the patient and the chunks sort in recording order.
 */
export const RecordingChunkBody = z.object({
  patientId: id,
  noteId: id,
  sessionId: z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/, 'The recording session id is not valid')),
  index: z.number().check(z.int(), z.gte(0), z.lte(99_999)),
  contentType: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  size: z.optional(z.number().check(z.int(), z.nonnegative())),
});
export type RecordingChunkBody = z.infer<typeof RecordingChunkBody>;
export const RecordingChunkResponse = z.object({ signedUrl: z.string(), key: z.string(), filesPath: z.string() });
export type RecordingChunkResponse = z.infer<typeof RecordingChunkResponse>;

/** POST /v1/transcriptions: fileKey names one uploaded audio file; without it the chunks under filesPath are joined. */
export const CreateTranscriptionBody = z.object({
  filesPath: z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.fileKey)),
  patientId: id,
  noteId: id,
  fileKey: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.fileKey))),
  /** A custom template's ident (copilot_custom_templates), applied instead of the SOAP layout. */
  templateIdent: z.optional(id),
  tidewellTemplateTypes: z._default(z.array(z.enum(COPILOT_TEMPLATE_TYPES)).check(z.maxLength(COPILOT_TEMPLATE_TYPES.length)), ['SOAP_NOTE']),
});
export type CreateTranscriptionBody = z.infer<typeof CreateTranscriptionBody>;

/** GET /v1/transcriptions/{id} (and the answer of POST and retry). */
export const TranscriptionStatusResponse = z.object({
  transcriptionId: id,
  noteId: id,
  patientId: id,
  status: z.enum(TRANSCRIPTION_STATUSES),
  message: z.optional(z.string()),
  updatedAt: z.string(),
  /** POST only: the note's version after its transcriptionId was set, so the open window saves on top of it. */
  noteVersion: z.optional(z.number().check(z.int())),
});
export type TranscriptionStatusResponse = z.infer<typeof TranscriptionStatusResponse>;

/** One stretch of speech: ids are 'seg-<n>', times in seconds from the start of the recording. */
export const TranscriptSegment = z.object({
  id: z.string(),
  speaker: z.string(),
  start: z.number().check(z.nonnegative()),
  end: z.number().check(z.nonnegative()),
  text: z.string(),
});
export type TranscriptSegment = z.infer<typeof TranscriptSegment>;

/** A generated sentence and the transcript segments it came from; none means the clinician must check it. */
export const EvidencedSentence = z.object({ text: z.string(), segmentIds: z.array(z.string()) });
export type EvidencedSentence = z.infer<typeof EvidencedSentence>;

export const NoteSection = z.object({ heading: z.string(), sentences: z.array(EvidencedSentence) });
export type NoteSection = z.infer<typeof NoteSection>;

/** Who wrote the text: a local engine is always labelled as local in the note and the UI. */
export const AiEngine = z.object({
  kind: z.enum(['local-rules', 'openai-compatible', 'bedrock', 'local-pocketsphinx', 'amazon-transcribe']),
  local: z.boolean(),
  label: z.string(),
  model: z.optional(z.string()),
});
export type AiEngine = z.infer<typeof AiEngine>;

/**
 * What a visit can add to the chart. A diagnosis is the patient's active one, asserted at the visit;
 * a family member's condition is family history and a past one is past history (an inactive
 * diagnosis). A negated or uncertain finding is never proposed.
 */
export const CHART_PROPOSAL_KINDS = ['medication-start', 'medication-stop', 'allergy', 'diagnosis', 'family-history', 'past-history', 'vitals'] as const;
export const CHART_PROPOSAL_STATUSES = ['PROPOSED', 'ACCEPTED', 'REJECTED'] as const;

/**
 * A structured chart change found in the visit. `fields` holds what the chart API it is written
 * through takes (a medication's name/dose, an allergy, an ICD-10 code and name, vitals values).
 */
export const ChartProposal = z.object({
  proposalId: id,
  kind: z.enum(CHART_PROPOSAL_KINDS),
  status: z.enum(CHART_PROPOSAL_STATUSES),
  summary: z.string(),
  fields: z.record(z.string(), z.union([z.string(), z.number()])),
  segmentIds: z.array(z.string()),
  /** The statement of the visit that asserts it, as heard (shown beside the proposal). */
  evidence: z.optional(z.string()),
  /** Set once accepted: what was written, for the note's noteDataLinks. */
  written: z.optional(z.object({ entity: z.string(), ident: z.string() })),
});
export type ChartProposal = z.infer<typeof ChartProposal>;

/** A transcription run as the table keeps it. */
export const TranscriptionRecord = z.object({
  transcriptionId: z.string(),
  noteId: z.string(),
  patientId: z.string(),
  /** The clinician who started the run: the finished note's notification goes to them. */
  authorId: z.string(),
  authorEmail: z.string(),
  authorName: z.string(),
  filesPath: z.string(),
  fileKey: z.optional(z.string()),
  templateIdent: z.optional(z.string()),
  templateTypes: z.array(z.enum(COPILOT_TEMPLATE_TYPES)),
  status: z.enum(TRANSCRIPTION_STATUSES),
  message: z.optional(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Executions started for this run (1 + retries); names the next execution. */
  attempts: z.number(),
  executionArn: z.optional(z.string()),
  /** The joined recording (recording.wav) and the result JSON, once written. */
  audioKey: z.optional(z.string()),
  /** The joined recording's type: audio/wav locally, the recorder's or upload's type in AWS. */
  audioContentType: z.optional(z.string()),
  resultKey: z.optional(z.string()),
  proposals: z.optional(z.array(ChartProposal)),
});
export type TranscriptionRecord = z.infer<typeof TranscriptionRecord>;

/** GET /v1/transcriptions/{id}/result once completed: the transcript, the evidence and the proposals. */
export const TranscriptionResult = z.object({
  transcriptionId: id,
  noteId: id,
  patientId: id,
  audioKey: z.optional(z.string()),
  transcript: z.array(TranscriptSegment),
  note: z.array(NoteSection),
  afterVisitSummary: z.array(EvidencedSentence),
  proposals: z.array(ChartProposal),
  engines: z.object({ speech: AiEngine, text: AiEngine }),
});
export type TranscriptionResult = z.infer<typeof TranscriptionResult>;

/** POST /v1/transcriptions/{id}/proposals/{proposalId} {decision}: accept writes through the chart APIs. */
export const ProposalDecisionBody = z.object({ decision: z.enum(['accept', 'reject']) });
export type ProposalDecisionBody = z.infer<typeof ProposalDecisionBody>;

/**
 * The client calls retry when a run's updatedAt is older than this: every step writes updatedAt when
 * it starts and a Transcribe job's poll writes it every 15 s, so 3 minutes without a write means the
 * run stalled. The server applies the same threshold: a retry of a run that is still moving is a no-op.
 */
export const TRANSCRIPTION_RETRY_AFTER_MS = 180_000;

/** Audio files one transcription accepts (spec §5), checked by the upload presign route too; the attachment messages. */
export function audioUploadError(fileName: string, size?: number): string | undefined {
  const dot = fileName.lastIndexOf('.');
  const extension = dot < 0 ? '' : fileName.slice(dot).toLowerCase();
  if (!(AUDIO_UPLOAD.extensions as readonly string[]).includes(extension)) {
    return NOTE_MESSAGES.unsupportedFile;
  }
  if (size !== undefined && size > AUDIO_UPLOAD.maxBytes) return NOTE_MESSAGES.fileTooLarge;
  return undefined;
}

/** POST /v1/transcriptions/uploads: one audio file instead of a recording (spec §5). */
export const AudioUploadBody = z.object({
  patientId: id,
  noteId: id,
  fileName: z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(200)),
  contentType: z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(100)),
  size: z.number().check(z.int()).check(z.nonnegative()),
});
export type AudioUploadBody = z.infer<typeof AudioUploadBody>;
/** The answer of the upload presign: PUT the file to signedUrl, then POST /v1/transcriptions {filesPath, fileKey: key}. */
export const AudioUploadResponse = RecordingChunkResponse;
export type AudioUploadResponse = RecordingChunkResponse;

/** GET /v1/transcriptions/{id}/recording: a presigned GET of the joined recording, for playback of evidence. */
export const TranscriptionRecordingResponse = z.object({ signedUrl: z.string(), key: z.string(), contentType: z.string() });
export type TranscriptionRecordingResponse = z.infer<typeof TranscriptionRecordingResponse>;
