import { StateMachine, type RunOptions } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { handler as worker } from '../../../functions/workers/transcription/handler.js';
import type { TranscriptionState, TranscriptionWorkerEvent } from '../../../functions/workers/transcription/transcription-steps.js';
import { TRANSCRIPTION_STATES, transcriptionDefinition } from './transcription-definition.js';

// aws-local-stepfunctions uses Promise.withResolvers (Node 22+); Node 20 lacks it.
const promiseCtor = Promise as unknown as { withResolvers?: () => unknown };
promiseCtor.withResolvers ??= () => {
  let resolve!: (value: unknown) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

const WORKER_ARN = 'arn:aws:lambda:us-east-1:111122223333:function:tidewell-demo-transcription-worker';
const INPUT = { practiceId: 'prc_demo_tidewell', transcriptionId: 'trn_1' };

type TaskHandler = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>[string];
type Worker = (event: TranscriptionWorkerEvent) => Promise<TranscriptionState>;

/** Runs the deployed definition, mapping every lambda:invoke task to `run` the way the optimised integration does. */
async function execute(run: Worker, input: Record<string, string> = INPUT) {
  const definition = transcriptionDefinition({ worker: WORKER_ARN });
  const calls: TranscriptionWorkerEvent[] = [];
  const invoke = async (input: unknown) => {
    const { FunctionName, Payload } = input as { FunctionName: string; Payload: TranscriptionWorkerEvent };
    expect(FunctionName).toBe(WORKER_ARN);
    calls.push(Payload);
    return { Payload: await run(Payload) };
  };
  const taskStates = Object.entries(definition.States)
    .filter(([, state]) => (state as { Type: string }).Type === 'Task')
    .map(([name]) => name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const machine = new StateMachine(definition as any);
  const execution = machine.run(input, {
    overrides: {
      taskResourceLocalHandlers: Object.fromEntries(taskStates.map((name) => [name, invoke as TaskHandler])),
      waitTimeOverrides: { [TRANSCRIPTION_STATES.wait]: 0 },
      retryIntervalOverrides: Object.fromEntries(taskStates.map((name) => [name, 0])),
    },
  });
  const outcome = await execution.result.then(
    (result) => ({ ok: true as const, result }),
    (error: Error) => ({ ok: false as const, error }),
  );
  return { outcome, steps: calls.map((c) => c.step), calls };
}

describe('transcription state machine definition', () => {
  it('is JSONPath ASL with the pipeline states, all tasks invoking the one worker', () => {
    const definition = transcriptionDefinition({ worker: WORKER_ARN });
    expect(definition.StartAt).toBe('ProcessAudioFile');
    expect(Object.keys(definition.States).sort()).toEqual(Object.values(TRANSCRIPTION_STATES).sort());
    expect(JSON.stringify(definition)).not.toContain('JSONata');
    const check = definition.States.CheckTranscription as { Parameters: { FunctionName: string; Payload: { step: string } } };
    expect(check.Parameters).toEqual({ FunctionName: WORKER_ARN, Payload: { step: 'checkTranscription', 'state.$': '$' } });
  });

  it('with the real worker, a run that does not exist fails at once and the failure is recorded', async () => {
    const { outcome, steps, calls } = await execute(worker, { practiceId: INPUT.practiceId, noteId: 'note-1' });

    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && (outcome.error.cause as Error).name).toBe('TranscriptionFailed');
    expect(steps).toEqual(['processAudio', 'recordFailure']);
    expect(calls[1].state).toMatchObject({ error: { Error: 'TranscriptionNotFound' } });
  });

  it('runs a local recognition (finished in start) straight to the note and the after-visit summary', async () => {
    const { outcome, steps } = await execute(async ({ step, state }) =>
      step === 'startTranscription' ? { ...state, transcriptionStatus: 'COMPLETED' } : state,
    );

    expect(outcome.ok).toBe(true);
    expect(steps).toEqual(['processAudio', 'startTranscription', 'formatText', 'afterVisitSummary']);
  });

  it('polls a Transcribe job until COMPLETED, then writes the note', async () => {
    let checks = 0;
    const { outcome, steps } = await execute(async ({ step, state }) => {
      if (step === 'startTranscription') return { ...state, jobName: 'job_1', transcriptionStatus: 'IN_PROGRESS' };
      if (step === 'checkTranscription') return { ...state, transcriptionStatus: ++checks < 3 ? 'IN_PROGRESS' : 'COMPLETED' };
      return state;
    });

    expect(outcome).toEqual({ ok: true, result: { ...INPUT, jobName: 'job_1', transcriptionStatus: 'COMPLETED' } });
    expect(steps).toEqual([
      'processAudio',
      'startTranscription',
      'checkTranscription',
      'checkTranscription',
      'checkTranscription',
      'formatText',
      'afterVisitSummary',
    ]);
  });

  it('sends a FAILED transcription job to RecordFailure and ends failed', async () => {
    const { outcome, steps } = await execute(async ({ step, state }) =>
      step === 'startTranscription'
        ? { ...state, transcriptionStatus: 'IN_PROGRESS' }
        : step === 'checkTranscription'
          ? { ...state, transcriptionStatus: 'FAILED' }
          : state,
    );

    expect(!outcome.ok && (outcome.error.cause as Error).name).toBe('TranscriptionFailed');
    expect(steps).toEqual(['processAudio', 'startTranscription', 'checkTranscription', 'recordFailure']);
  });

  it('retries a passing error (a Lambda service error, a reset connection) instead of failing the run', async () => {
    let audioAttempts = 0;
    let formatAttempts = 0;
    const { outcome, steps } = await execute(async ({ step, state }) => {
      if (step === 'processAudio' && ++audioAttempts === 1) throw Object.assign(new Error('Rate exceeded'), { name: 'Lambda.TooManyRequestsException' });
      if (step === 'formatText' && ++formatAttempts === 1) throw Object.assign(new Error('socket hang up'), { name: 'ECONNRESET' });
      if (step === 'startTranscription') return { ...state, transcriptionStatus: 'COMPLETED' };
      return state;
    });

    expect(outcome.ok).toBe(true);
    expect(steps).toEqual(['processAudio', 'processAudio', 'startTranscription', 'formatText', 'formatText', 'afterVisitSummary']);
  });

  it('records a permanent error (undecodable audio) at once, without retrying it', async () => {
    const { outcome, steps, calls } = await execute(async ({ step, state }) => {
      if (step === 'processAudio') throw Object.assign(new Error('The recording could not be decoded'), { name: 'AudioNotDecodable' });
      return state;
    });

    expect(outcome.ok).toBe(false);
    expect(steps).toEqual(['processAudio', 'recordFailure']);
    expect(calls[1].state.error).toMatchObject({ Error: 'AudioNotDecodable' });
  });

  it('gives up on an error that keeps coming after the retries and records it', async () => {
    const { outcome, steps } = await execute(async ({ step, state }) => {
      if (step === 'formatText') throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
      return step === 'startTranscription' ? { ...state, transcriptionStatus: 'COMPLETED' } : state;
    });

    expect(outcome.ok).toBe(false);
    expect(steps.filter((s) => s === 'formatText')).toHaveLength(4);
    expect(steps.at(-1)).toBe('recordFailure');
  });
});
