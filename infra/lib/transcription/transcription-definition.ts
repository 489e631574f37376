/**
 * The transcription state machine, as plain Amazon States Language in JSONPath (not JSONata:
 * the local engine runs JSONPath only). The CDK stack deploys this object and the local runtime
 * executes the same object, so the two cannot drift.
 *
 * Every task invokes the one worker Lambda through the optimised `lambda:invoke` integration
 * with `{ step, state }` and keeps only the returned `Payload` as the next state.
 */
import {
  PERMANENT_ERRORS,
  TRANSCRIPTION_STATUS,
  TRANSCRIPTION_STEPS,
  type TranscriptionStep,
} from '../../../functions/workers/transcription/transcription-steps.js';

/** The worker's handler module, relative to the repository root (read by the stack and the local runtime). */
export const TRANSCRIPTION_WORKER_ENTRY = 'functions/workers/transcription/handler.ts';

export const TRANSCRIPTION_STATES = {
  processAudio: 'ProcessAudioFile',
  start: 'StartTranscription',
  wait: 'WaitForTranscription',
  check: 'CheckTranscription',
  choice: 'TranscriptionStatus',
  formatText: 'FormatText',
  afterVisitSummary: 'AfterVisitSummary',
  recordFailure: 'RecordFailure',
  succeeded: 'Succeeded',
  failed: 'TranscriptionFailed',
} as const;

/** Seconds between polls of the transcription job. */
export const TRANSCRIPTION_POLL_SECONDS = 15;

/** Errors of the Lambda service itself (throttling, a cold start that failed), safe to retry. */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

/** Retries of a step that failed for a passing reason (throttling, a reset connection): 2 s, 4 s, 8 s. */
export const STEP_RETRY = { IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 } as const;

/**
 * Local speech recognition of a 90 minute visit runs about 20 minutes on one core; in AWS the
 * worker's own 300 s timeout ends a step first.
 */
export const STEP_TIMEOUT_SECONDS = 3600;

type Retrier = { ErrorEquals: string[]; IntervalSeconds?: number; MaxAttempts: number; BackoffRate?: number };

export interface AslTaskState {
  Type: 'Task';
  Resource: string;
  Parameters: Record<string, unknown>;
  OutputPath: string;
  TimeoutSeconds: number;
  Retry: Retrier[];
  Catch?: { ErrorEquals: string[]; ResultPath: string; Next: string }[];
  Next?: string;
  End?: boolean;
}

export interface TranscriptionDefinition {
  Comment: string;
  StartAt: string;
  TimeoutSeconds: number;
  States: Record<string, object>;
}

/**
 * A pipeline step: a named error that retrying cannot fix (PERMANENT_ERRORS) is recorded at once;
 * any other error is retried, then recorded. RecordFailure itself retries only Lambda service
 * errors, so a failure is always written and the run never hangs.
 */
function invokeWorker(worker: string, step: TranscriptionStep, next: string, pipelineStep: boolean): AslTaskState {
  return {
    Type: 'Task',
    Resource: 'arn:aws:states:::lambda:invoke',
    Parameters: { FunctionName: worker, Payload: { step, 'state.$': '$' } },
    OutputPath: '$.Payload',
    TimeoutSeconds: STEP_TIMEOUT_SECONDS,
    Retry: pipelineStep
      ? [
          { ErrorEquals: [...PERMANENT_ERRORS], MaxAttempts: 0 },
          { ErrorEquals: ['States.ALL'], ...STEP_RETRY },
        ]
      : [{ ErrorEquals: LAMBDA_SERVICE_ERRORS, ...STEP_RETRY }],
    ...(pipelineStep ? { Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: TRANSCRIPTION_STATES.recordFailure }] } : {}),
    Next: next,
  };
}

export function transcriptionDefinition(functionArns: { worker: string }): TranscriptionDefinition {
  const { worker } = functionArns;
  const S = TRANSCRIPTION_STATES;
  const T = TRANSCRIPTION_STEPS;
  return {
    Comment: 'Join the recording, transcribe it, write the note and the after-visit summary into the draft, propose chart changes.',
    StartAt: S.processAudio,
    // A Transcribe job that never finishes must not poll forever.
    TimeoutSeconds: 2 * 60 * 60,
    States: {
      [S.processAudio]: invokeWorker(worker, T.processAudio, S.start, true),
      [S.start]: invokeWorker(worker, T.start, S.choice, true),
      [S.choice]: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.transcriptionStatus', StringEquals: TRANSCRIPTION_STATUS.completed, Next: S.formatText },
          // A job that failed is recorded like any caught error, so the note shows why.
          { Variable: '$.transcriptionStatus', StringEquals: TRANSCRIPTION_STATUS.failed, Next: S.recordFailure },
        ],
        Default: S.wait,
      },
      [S.wait]: { Type: 'Wait', Seconds: TRANSCRIPTION_POLL_SECONDS, Next: S.check },
      [S.check]: invokeWorker(worker, T.check, S.choice, true),
      [S.formatText]: invokeWorker(worker, T.formatText, S.afterVisitSummary, true),
      [S.afterVisitSummary]: invokeWorker(worker, T.afterVisitSummary, S.succeeded, true),
      [S.succeeded]: { Type: 'Succeed' },
      [S.recordFailure]: invokeWorker(worker, T.recordFailure, S.failed, false),
      [S.failed]: { Type: 'Fail', Error: 'TranscriptionFailed', Cause: 'The transcription or the note generation failed; see RecordFailure.' },
    },
  };
}
