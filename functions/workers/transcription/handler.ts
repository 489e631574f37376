/**
 * The transcription state machine's worker: one Lambda, dispatched on `step`. Each step writes the
 * run's status first (so the note window shows where it is and updatedAt moves), does its part
 * with the run's objects in the files bucket, and returns the identifiers for the next state.
 */
import type {
  AiEngine,
  ChartProposal,
  EvidencedSentence,
  NoteSection,
  TranscriptSegment,
  TranscriptionStatus,
} from '../../../shared/ai/transcription-schema.js';
import { log } from '../../lib/log.js';
import { CHUNK_PATTERN, runFolder } from '../../lib/files/recording-keys.js';
import { getTranscription, updateTranscription, type TranscriptionRecord } from '../../data/transcriptions/transcription-repository.js';
import { enginesFromEnv, type Engines, type RunAudio } from './engines/engines.js';
import { noSpeech, PipelineError, recordingMissing, runSuperseded, transcriptionJobFailed, transcriptionNotFound } from './errors.js';
import { proposalStep } from './note/asserted-proposals.js';
import { checkedNote, keepKnownEvidence } from './note/note-model.js';
import { finishNote } from './finish.js';
import { listKeys, readJson, writeJson } from './run-files.js';
import { PERMANENT_ERRORS, TRANSCRIPTION_STATUS, TRANSCRIPTION_STEPS, type TranscriptionState, type TranscriptionWorkerEvent } from './transcription-steps.js';

let engines: Promise<Engines> | undefined;
/** Tests and the bench swap engines (e.g. to count calls); the default follows the environment. */
export function useEngines(next: Engines | undefined): void {
  engines = next ? Promise.resolve(next) : undefined;
}
const currentEngines = () =>
  (engines ??= enginesFromEnv().catch((error: unknown) => {
    engines = undefined;
    throw error;
  }));

export class UnknownTranscriptionStep extends PipelineError {
  constructor(step: unknown) {
    super('UnknownTranscriptionStep', `Unknown transcription step: ${String(step)}`);
  }
}

const identified = (state: TranscriptionState) =>
  typeof state.practiceId === 'string' && typeof state.transcriptionId === 'string' && state.practiceId !== '' && state.transcriptionId !== '';

/** What the next state carries: the run and the execution's attempt. */
const idsOf = (state: TranscriptionState): TranscriptionState => ({
  practiceId: state.practiceId,
  transcriptionId: state.transcriptionId,
  ...(state.attempt !== undefined ? { attempt: state.attempt } : {}),
});

async function enter(state: TranscriptionState, status: TranscriptionStatus): Promise<TranscriptionRecord> {
  const record = identified(state) ? await getTranscription(state.practiceId, state.transcriptionId) : null;
  if (!record) throw transcriptionNotFound();
  // A retry started a newer execution of this run: the older one stops before it writes anything.
  if (state.attempt !== undefined && record.attempts !== state.attempt) throw runSuperseded();
  return updateTranscription(state.practiceId, state.transcriptionId, { status, message: undefined });
}

const folderOf = (r: TranscriptionRecord) => runFolder(r.patientId, r.noteId, r.transcriptionId);
const transcriptKey = (r: TranscriptionRecord) => `${folderOf(r)}transcript.json`;
const noteKey = (r: TranscriptionRecord) => `${folderOf(r)}note.json`;
const resultKey = (r: TranscriptionRecord) => `${folderOf(r)}result.json`;

interface StoredTranscript {
  engine: AiEngine;
  segments: TranscriptSegment[];
}

async function sourcesOf(r: TranscriptionRecord): Promise<string[]> {
  if (r.fileKey) return [r.fileKey];
  const chunks = (await listKeys(r.filesPath))
    .map((key) => ({ key, index: CHUNK_PATTERN.exec(key)?.[1] }))
    .filter((c): c is { key: string; index: string } => c.index !== undefined && c.key.slice(r.filesPath.length).indexOf('/') < 0)
    .sort((a, b) => Number(a.index) - Number(b.index));
  return chunks.map((c) => c.key);
}

async function runAudio(r: TranscriptionRecord): Promise<RunAudio> {
  const sourceKeys = await sourcesOf(r);
  if (!sourceKeys.length) throw recordingMissing();
  return { sourceKeys, runFolder: folderOf(r), transcriptionId: r.transcriptionId };
}

async function processAudio(state: TranscriptionState): Promise<TranscriptionState> {
  const record = await enter(state, 'processing_audio_file');
  const { speech } = await currentEngines();
  const { audioKey, contentType } = await speech.prepareAudio(await runAudio(record));
  await updateTranscription(state.practiceId, state.transcriptionId, { audioKey, audioContentType: contentType });
  return idsOf(state);
}

async function saveTranscript(record: TranscriptionRecord, engine: AiEngine, segments: TranscriptSegment[]): Promise<void> {
  if (!segments.some((s) => s.text.trim())) throw noSpeech();
  await writeJson(transcriptKey(record), { engine, segments } satisfies StoredTranscript);
}

async function startTranscription(state: TranscriptionState): Promise<TranscriptionState> {
  const record = await enter(state, 'processing_transcription');
  const { speech } = await currentEngines();
  if (!record.audioKey) throw recordingMissing();
  const started = await speech.start(record.audioKey, await runAudio(record));
  if (started.status === 'IN_PROGRESS') return { ...state, jobName: started.jobName, transcriptionStatus: TRANSCRIPTION_STATUS.inProgress };
  await saveTranscript(record, speech.engine, started.segments);
  return { ...idsOf(state), transcriptionStatus: TRANSCRIPTION_STATUS.completed };
}

async function checkTranscription(state: TranscriptionState): Promise<TranscriptionState> {
  // Each poll moves updatedAt, so a long job is not taken for a stalled one.
  const record = await enter(state, 'processing_transcription');
  const { speech } = await currentEngines();
  if (!state.jobName) throw transcriptionJobFailed('no job was started');
  const checked = await speech.check(state.jobName, await runAudio(record));
  if (checked.status === 'IN_PROGRESS') return { ...state, transcriptionStatus: TRANSCRIPTION_STATUS.inProgress };
  if (checked.status === 'FAILED') {
    const failure = transcriptionJobFailed(checked.reason);
    return { ...state, transcriptionStatus: TRANSCRIPTION_STATUS.failed, error: { Error: failure.name, Cause: failure.message } };
  }
  await saveTranscript(record, speech.engine, checked.segments);
  return { ...idsOf(state), transcriptionStatus: TRANSCRIPTION_STATUS.completed };
}

async function formatText(state: TranscriptionState): Promise<TranscriptionState> {
  const record = await enter(state, 'processing_formatting_text');
  const { text } = await currentEngines();
  const transcript = await readJson<StoredTranscript>(transcriptKey(record));
  const wantSoap = record.templateTypes.includes('SOAP_NOTE') || Boolean(record.templateIdent);
  const sections = wantSoap ? checkedNote(await text.soapNote(transcript.segments, {}), transcript.segments) : [];
  await writeJson(noteKey(record), { sections, engine: text.engine });
  return idsOf(state);
}

async function afterVisitSummary(state: TranscriptionState): Promise<TranscriptionState> {
  const record = await enter(state, 'processing_after_visit_summary');
  const { text } = await currentEngines();
  const transcript = await readJson<StoredTranscript>(transcriptKey(record));
  const { sections } = await readJson<{ sections: NoteSection[] }>(noteKey(record));
  // The after-visit summary is written when asked for, or with the SOAP note as its patient copy.
  const avs: EvidencedSentence[] = keepKnownEvidence(await text.afterVisitSummary(transcript.segments, sections, {}), transcript.segments);
  // Whatever the engine proposed, only what the transcript asserts stands (no "no fever" as a diagnosis).
  const drafts = await proposalStep(text, transcript.segments);
  const proposals: ChartProposal[] = drafts.map((d, i) => ({ ...d, proposalId: `prp-${i + 1}`, status: 'PROPOSED' }));
  const used = { speech: transcript.engine, text: text.engine };
  await writeJson(resultKey(record), {
    transcriptionId: record.transcriptionId,
    noteId: record.noteId,
    patientId: record.patientId,
    audioKey: record.audioKey,
    transcript: transcript.segments,
    note: sections,
    afterVisitSummary: avs,
    engines: used,
  });
  await finishNote(state.practiceId, record, sections, avs, used);
  await updateTranscription(state.practiceId, state.transcriptionId, { status: 'completed', resultKey: resultKey(record), proposals });
  return idsOf(state);
}

/** Step Functions hands a Lambda error over as Cause = '{"errorType","errorMessage",…}'; the message of a named error is the run's message. */
export function failureMessage(error: TranscriptionState['error']): { status: 'failed' | 'cancelled'; message: string } {
  const name = error?.Error ?? '';
  let message: string | undefined;
  if ((PERMANENT_ERRORS as readonly string[]).includes(name) && error?.Cause) {
    try {
      message = (JSON.parse(error.Cause) as { errorMessage?: string }).errorMessage;
    } catch {
      message = error.Cause;
    }
  }
  return {
    status: name === 'NoteNoLongerDraft' ? 'cancelled' : 'failed',
    message: message ?? 'The AI note could not be created. Please try again.',
  };
}

async function recordFailure(state: TranscriptionState): Promise<TranscriptionState> {
  // Error names and ids only: a Cause may quote a transcript.
  log.error('transcription failed', {
    practiceId: state.practiceId,
    transcriptionId: state.transcriptionId,
    error: state.error?.Error ?? state.transcriptionStatus,
  });
  const { status, message } = failureMessage(state.error);
  // A superseded execution's failure is not the run's: the newer execution reports for it.
  if (state.error?.Error === 'RunSuperseded') return { ...state, transcriptionStatus: TRANSCRIPTION_STATUS.failed };
  if (identified(state) && (await getTranscription(state.practiceId, state.transcriptionId)))
    await updateTranscription(state.practiceId, state.transcriptionId, { status, message });
  return { ...state, transcriptionStatus: TRANSCRIPTION_STATUS.failed };
}

export async function handler(event: TranscriptionWorkerEvent): Promise<TranscriptionState> {
  switch (event.step) {
    case TRANSCRIPTION_STEPS.processAudio:
      return processAudio(event.state);
    case TRANSCRIPTION_STEPS.start:
      return startTranscription(event.state);
    case TRANSCRIPTION_STEPS.check:
      return checkTranscription(event.state);
    case TRANSCRIPTION_STEPS.formatText:
      return formatText(event.state);
    case TRANSCRIPTION_STEPS.afterVisitSummary:
      return afterVisitSummary(event.state);
    case TRANSCRIPTION_STEPS.recordFailure:
      return recordFailure(event.state);
    default:
      throw new UnknownTranscriptionStep((event as { step?: unknown }).step);
  }
}
