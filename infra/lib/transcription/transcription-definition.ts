/**
 * The transcription state machine, as plain Amazon States Language in JSONPath (not JSONata:
 * the local engine runs JSONPath only). The CDK stack deploys this object and the local runtime
 * executes the same object, so the two cannot drift.
 *
 * Every task invokes the one worker Lambda through the optimised `lambda:invoke` integration
 * with `{ step, state }` and keeps only the returned `Payload` as the next state.
 */
import { TRANSCRIPTION_STATUS, TRANSCRIPTION_STEPS, type TranscriptionStep } from '../../../functions/workers/transcription/transcription-steps.js';

/** The worker's handler module, relative to the repository root (read by the stack and the local runtime). */
export const TRANSCRIPTION_WORKER_ENTRY = 'functions/workers/transcription/handler.ts';

export const TRANSCRIPTION_STATES = {
  start: 'StartTranscription',
  wait: 'WaitForTranscription',
  check: 'CheckTranscription',
  choice: 'TranscriptionStatus',
  generateNote: 'GenerateNote',
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

export interface AslTaskState {
  Type: 'Task';
  Resource: string;
  Parameters: Record<string, unknown>;
  OutputPath: string;
  TimeoutSeconds: number;
  Retry: { ErrorEquals: string[]; IntervalSeconds: number; MaxAttempts: number; BackoffRate: number }[];
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

function invokeWorker(worker: string, step: TranscriptionStep, next: string, catchToFailure: boolean): AslTaskState {
  return {
    Type: 'Task',
    Resource: 'arn:aws:states:::lambda:invoke',
    Parameters: { FunctionName: worker, Payload: { step, 'state.$': '$' } },
    OutputPath: '$.Payload',
    TimeoutSeconds: 90,
    Retry: [{ ErrorEquals: LAMBDA_SERVICE_ERRORS, IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 }],
    ...(catchToFailure
      ? { Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: TRANSCRIPTION_STATES.recordFailure }] }
      : {}),
    Next: next,
  };
}

export function transcriptionDefinition(functionArns: { worker: string }): TranscriptionDefinition {
  const { worker } = functionArns;
  const S = TRANSCRIPTION_STATES;
  return {
    Comment: 'Transcribe a visit recording, then generate the note draft from the transcript.',
    StartAt: S.start,
    // A Transcribe job that never finishes must not poll forever.
    TimeoutSeconds: 2 * 60 * 60,
    States: {
      [S.start]: invokeWorker(worker, TRANSCRIPTION_STEPS.start, S.wait, true),
      [S.wait]: { Type: 'Wait', Seconds: TRANSCRIPTION_POLL_SECONDS, Next: S.check },
      [S.check]: invokeWorker(worker, TRANSCRIPTION_STEPS.check, S.choice, true),
      [S.choice]: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.transcriptionStatus', StringEquals: TRANSCRIPTION_STATUS.completed, Next: S.generateNote },
          // A job that failed is recorded like any caught error, so the note shows why.
          { Variable: '$.transcriptionStatus', StringEquals: TRANSCRIPTION_STATUS.failed, Next: S.recordFailure },
        ],
        Default: S.wait,
      },
      [S.generateNote]: invokeWorker(worker, TRANSCRIPTION_STEPS.generateNote, S.succeeded, true),
      [S.succeeded]: { Type: 'Succeed' },
      [S.recordFailure]: invokeWorker(worker, TRANSCRIPTION_STEPS.recordFailure, S.failed, false),
      [S.failed]: { Type: 'Fail', Error: 'TranscriptionFailed', Cause: 'The transcription or the note generation failed; see RecordFailure.' },
    },
  };
}
