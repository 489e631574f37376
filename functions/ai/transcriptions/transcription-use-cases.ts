import { randomUUID } from 'node:crypto';
import { NOTE_MESSAGES } from '../../../shared/notes/note-constants.js';
import {
  AUDIO_UPLOAD,
  audioUploadError,
  TRANSCRIPTION_RETRY_AFTER_MS,
  type AudioUploadBody,
  type CreateTranscriptionBody,
  type RecordingChunkBody,
  type RecordingChunkResponse,
  type TranscriptionRecordingResponse,
  type TranscriptionResult,
  type TranscriptionStatusResponse,
} from '../../../shared/ai/transcription-schema.js';
import type { WorkflowAdapter } from '../../lib/adapters/workflow.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { log } from '../../lib/log.js';
import { presignGet, presignPut, readObject } from '../../lib/files/file-store.js';
import { requireNote, writeNextVersion } from '../../data/notes/note-repository.js';
import { getTemplate } from '../../data/notes/template-repository.js';
import { getPatient } from '../../data/patients/patient-repository.js';
import { assertRunLocation, assertSafeId, chunkExtension, chunkKey, noteRecordingsFolder, safeFileName } from '../../lib/files/recording-keys.js';
import {
  getTranscription,
  insertTranscription,
  requireTranscription,
  statusOf,
  updateTranscription,
  type TranscriptionRecord,
} from '../../data/transcriptions/transcription-repository.js';

let workflow: WorkflowAdapter | undefined;
/** The Step Functions client loads on a start or retry only, not on the 2 s status polls. */
async function workflows(): Promise<WorkflowAdapter> {
  workflow ??= (await import('../../lib/adapters/workflow.js')).workflowAdapterFromEnv();
  return workflow;
}
/** Tests swap the execution service. */
export function useWorkflow(adapter: WorkflowAdapter | undefined): void {
  workflow = adapter;
}

async function requireDraftOfPatient(auth: AuthContext, patientId: string, noteId: string) {
  assertSafeId(patientId, 'patientId');
  assertSafeId(noteId, 'noteId');
  if (!(await getPatient(auth.practiceId, patientId))) throw new NotFoundError('Patient not found');
  const note = await requireNote(auth.practiceId, noteId);
  if (note.patientId !== patientId) throw new ValidationError('The note belongs to another patient', { noteId: 'is not a note of this patient' });
  if (note.status !== 'DRAFT') throw new ConflictError('Only a draft note can be transcribed into');
  return note;
}

/** POST /v1/transcriptions/chunks: a presigned PUT for one 10 s chunk of a recording. */
export async function presignChunk(auth: AuthContext, body: RecordingChunkBody): Promise<RecordingChunkResponse> {
  await requireDraftOfPatient(auth, body.patientId, body.noteId);
  const problem = body.size !== undefined && body.size > AUDIO_UPLOAD.maxBytes ? NOTE_MESSAGES.fileTooLarge : undefined;
  if (problem) throw new ValidationError(problem, { size: problem });
  const filesPath = `${noteRecordingsFolder(body.patientId, body.noteId)}${body.sessionId}/`;
  const key = chunkKey(filesPath, body.index, chunkExtension(body.contentType));
  const signedUrl = await presignPut(key, body.contentType, body.size);
  // One audit row per recording, not per 10 s chunk.
  if (body.index === 0) await writeAudit(auth, { action: 'create', entity: 'RECORDING', entityId: filesPath, patientId: body.patientId });
  return { signedUrl, key, filesPath };
}

/** POST /v1/transcriptions/uploads: a presigned PUT for one audio file (spec §5 types and size, checked here too). */
export async function presignAudioUpload(auth: AuthContext, body: AudioUploadBody): Promise<RecordingChunkResponse> {
  const problem = audioUploadError(body.fileName, body.size);
  if (problem) throw new ValidationError(problem, { fileName: problem });
  await requireDraftOfPatient(auth, body.patientId, body.noteId);
  const filesPath = `${noteRecordingsFolder(body.patientId, body.noteId)}${randomUUID()}/`;
  const key = `${filesPath}${safeFileName(body.fileName)}`;
  const signedUrl = await presignPut(key, body.contentType, body.size);
  await writeAudit(auth, { action: 'create', entity: 'RECORDING', entityId: key, patientId: body.patientId });
  return { signedUrl, key, filesPath };
}

function stateMachineArn(): string {
  const arn = process.env.TRANSCRIPTION_STATE_MACHINE_ARN;
  if (!arn) throw new Error('TRANSCRIPTION_STATE_MACHINE_ARN is not set');
  return arn;
}

/** Starts (or restarts) the state machine for a run; a start that fails is recorded as the run's failure. */
async function startExecution(practiceId: string, record: TranscriptionRecord): Promise<TranscriptionRecord> {
  // The attempt is recorded before the execution starts: its first step checks it, and an older execution that is still running stops.
  const attempts = record.attempts + 1;
  const queued = await updateTranscription(practiceId, record.transcriptionId, { attempts, status: 'queued', message: undefined });
  try {
    const { executionArn } = await (
      await workflows()
    ).start({
      stateMachineArn: stateMachineArn(),
      input: { practiceId, transcriptionId: record.transcriptionId, attempt: attempts },
      name: `${record.transcriptionId}-${attempts}`,
    });
    // The execution may already have moved the status on: only the ARN is written here.
    await updateTranscription(practiceId, record.transcriptionId, { executionArn });
    return queued;
  } catch (error) {
    log.error('transcription start failed', { transcriptionId: record.transcriptionId, error: (error as Error).name });
    return updateTranscription(practiceId, record.transcriptionId, { status: 'failed', message: 'The transcription could not be started. Please try again.' });
  }
}

/** POST /v1/transcriptions: records the run, links it from the note (data.transcriptionId) and starts the state machine. */
export async function createTranscription(auth: AuthContext, body: CreateTranscriptionBody, now = new Date()): Promise<TranscriptionStatusResponse> {
  const note = await requireDraftOfPatient(auth, body.patientId, body.noteId);
  const filesPath = assertRunLocation(body.patientId, body.noteId, body.filesPath, body.fileKey);
  if (body.fileKey) {
    const problem = audioUploadError(body.fileKey);
    if (problem) throw new ValidationError(problem, { fileKey: problem });
  }
  if (body.templateIdent) {
    // Spec notes §9: only active templates with wild cards are Copilot templates; a private one is its owner's.
    const template = await getTemplate(auth.practiceId, body.templateIdent);
    if (
      !template ||
      (template.private && template.ownerUserId !== auth.userId) ||
      template.status !== 'active' ||
      !template.transformKeys.includes('wild card')
    ) {
      throw new ValidationError('The template must be an active template with a wild card', { templateIdent: 'is not a Copilot template' });
    }
  }
  const transcriptionId = `trn-${randomUUID()}`;
  const record: TranscriptionRecord = {
    transcriptionId,
    noteId: body.noteId,
    patientId: body.patientId,
    authorId: auth.userId,
    authorEmail: auth.email,
    authorName: auth.name,
    filesPath,
    ...(body.fileKey ? { fileKey: body.fileKey } : {}),
    ...(body.templateIdent ? { templateIdent: body.templateIdent } : {}),
    templateTypes: body.tidewellTemplateTypes,
    status: 'queued',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    attempts: 0,
  };
  await insertTranscription(auth.practiceId, record);
  const linked = await writeNextVersion(auth.practiceId, note, { data: { ...note.data, transcriptionId } }, now);
  await writeAudit(auth, { action: 'create', entity: 'TRANSCRIPTION', entityId: transcriptionId, patientId: body.patientId });
  const started = await startExecution(auth.practiceId, record);
  return { ...statusOf(started), noteVersion: linked.noteVersion };
}

/** GET /v1/transcriptions/{id}: status only (ids, no patient data), polled every 2 s, so not audited per poll. */
export async function transcriptionStatus(auth: AuthContext, transcriptionId: string): Promise<TranscriptionStatusResponse> {
  return statusOf(await requireTranscription(auth.practiceId, transcriptionId));
}

/**
 * POST /v1/transcriptions/{id}/retry: a failed or cancelled run, or one without an update for
 * TRANSCRIPTION_RETRY_AFTER_MS, gets a new execution; a completed or moving run is answered as it is.
 */
export async function retryTranscription(auth: AuthContext, transcriptionId: string, now = new Date()): Promise<TranscriptionStatusResponse> {
  const record = await requireTranscription(auth.practiceId, transcriptionId);
  const stalled = now.getTime() - Date.parse(record.updatedAt) > TRANSCRIPTION_RETRY_AFTER_MS;
  const ended = record.status === 'failed' || record.status === 'cancelled';
  if (record.status === 'completed' || !(ended || stalled)) return statusOf(record);
  await writeAudit(auth, { action: 'update', entity: 'TRANSCRIPTION', entityId: transcriptionId, patientId: record.patientId });
  return statusOf(await startExecution(auth.practiceId, record));
}

async function completed(auth: AuthContext, transcriptionId: string): Promise<TranscriptionRecord> {
  const record = await requireTranscription(auth.practiceId, transcriptionId);
  if (record.status !== 'completed' || !record.resultKey) throw new ConflictError('The transcription has not completed');
  return record;
}

/** GET /v1/transcriptions/{id}/result: the transcript, the evidenced note and the proposals (a PHI read). */
export async function transcriptionResult(auth: AuthContext, transcriptionId: string): Promise<TranscriptionResult> {
  const record = await completed(auth, transcriptionId);
  const stored = JSON.parse(Buffer.from(await readObject(record.resultKey!)).toString('utf8')) as Omit<TranscriptionResult, 'proposals'>;
  await writeAudit(auth, { action: 'read', entity: 'TRANSCRIPTION', entityId: transcriptionId, patientId: record.patientId });
  return { ...stored, proposals: record.proposals ?? [] };
}

/** GET /v1/transcriptions/{id}/recording: a presigned GET of the joined recording, for playing evidence. */
export async function transcriptionRecording(auth: AuthContext, transcriptionId: string): Promise<TranscriptionRecordingResponse> {
  const record = await getTranscription(auth.practiceId, transcriptionId);
  if (!record?.audioKey) throw new NotFoundError('The recording of this transcription is not available');
  const signedUrl = await presignGet(record.audioKey);
  await writeAudit(auth, { action: 'read', entity: 'RECORDING', entityId: record.audioKey, patientId: record.patientId });
  return { signedUrl, key: record.audioKey, contentType: record.audioContentType ?? 'audio/wav' };
}
