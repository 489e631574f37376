/**
 * The contract between the transcription state machine and its worker Lambda: the machine
 * invokes the worker with `{ step, state }` and the worker returns the next state.
 */
export const TRANSCRIPTION_STEPS = {
  processAudio: 'processAudio',
  start: 'startTranscription',
  check: 'checkTranscription',
  formatText: 'formatText',
  afterVisitSummary: 'afterVisitSummary',
  recordFailure: 'recordFailure',
} as const;

export type TranscriptionStep = (typeof TRANSCRIPTION_STEPS)[keyof typeof TRANSCRIPTION_STEPS];

/** Values of `state.transcriptionStatus` the machine's Choice state branches on (the speech job's state). */
export const TRANSCRIPTION_STATUS = {
  completed: 'COMPLETED',
  failed: 'FAILED',
  inProgress: 'IN_PROGRESS',
} as const;

/**
 * Errors that retrying cannot fix: the machine records them at once (their message is the run's
 * message). Anything else (S3 or model throttling, a network reset, a Lambda service error) is
 * retried by the task's Retry before it is recorded.
 */
export const PERMANENT_ERRORS = [
  'SpeechEngineMissing',
  'AudioNotDecodable',
  'RecordingMissing',
  'NoSpeechRecognized',
  'TranscriptionJobFailed',
  'AiNotConfigured',
  'NoteNoLongerDraft',
  'TranscriptionNotFound',
  'UnknownTranscriptionStep',
  'RunSuperseded',
] as const;

/**
 * What flows between the states: the identifiers only. Audio, transcript and note live in the
 * files bucket (an execution's state is capped at 256 KB); a caught error lands in `error` (ASL
 * Catch ResultPath) before recordFailure.
 */
export interface TranscriptionState {
  practiceId: string;
  transcriptionId: string;
  transcriptionStatus?: string;
  /** Which start of the run this execution is (1, then one more per retry). */
  attempt?: number;
  /** The Amazon Transcribe job, in AWS. */
  jobName?: string;
  error?: { Error: string; Cause?: string };
  [field: string]: unknown;
}

export interface TranscriptionWorkerEvent {
  step: TranscriptionStep;
  state: TranscriptionState;
}
