/**
 * The contract between the transcription state machine and its worker Lambda: the machine
 * invokes the worker with `{ step, state }` and the worker returns the next state.
 */
export const TRANSCRIPTION_STEPS = {
  start: 'startTranscription',
  check: 'checkTranscription',
  generateNote: 'generateNote',
  recordFailure: 'recordFailure',
} as const;

export type TranscriptionStep = (typeof TRANSCRIPTION_STEPS)[keyof typeof TRANSCRIPTION_STEPS];

/** Values of `state.transcriptionStatus` the machine's Choice state branches on. */
export const TRANSCRIPTION_STATUS = {
  completed: 'COMPLETED',
  failed: 'FAILED',
  inProgress: 'IN_PROGRESS',
} as const;

/**
 * What flows between the states. The execution input carries the identifiers; the worker adds
 * the job fields; a caught error lands in `error` (ASL Catch ResultPath) before recordFailure.
 */
export interface TranscriptionState {
  practiceId: string;
  transcriptionId: string;
  transcriptionStatus?: string;
  error?: { Error: string; Cause?: string };
  [field: string]: unknown;
}

export interface TranscriptionWorkerEvent {
  step: TranscriptionStep;
  state: TranscriptionState;
}
