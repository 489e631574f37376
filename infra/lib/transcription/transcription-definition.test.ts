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
async function execute(run: Worker) {
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
  const execution = machine.run(INPUT, {
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
  it('is JSONPath ASL with the skeleton states, all tasks invoking the one worker', () => {
    const definition = transcriptionDefinition({ worker: WORKER_ARN });
    expect(definition.StartAt).toBe('StartTranscription');
    expect(Object.keys(definition.States).sort()).toEqual(Object.values(TRANSCRIPTION_STATES).sort());
    expect(JSON.stringify(definition)).not.toContain('JSONata');
    const check = definition.States.CheckTranscription as { Parameters: { FunctionName: string; Payload: { step: string } } };
    expect(check.Parameters).toEqual({ FunctionName: WORKER_ARN, Payload: { step: 'checkTranscription', 'state.$': '$' } });
  });

  it('with the real worker, a transcription fails with TranscriptionNotConfigured and the failure is recorded', async () => {
    const { outcome, steps, calls } = await execute(worker);

    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && (outcome.error.cause as Error).name).toBe('TranscriptionFailed');
    expect(steps).toEqual(['startTranscription', 'recordFailure']);
    expect(calls[1].state).toMatchObject({ ...INPUT, error: { Error: 'TranscriptionNotConfigured' } });
  });

  it('polls until COMPLETED, then generates the note and succeeds', async () => {
    let checks = 0;
    const { outcome, steps } = await execute(async ({ step, state }) => {
      if (step === 'checkTranscription') {
        checks += 1;
        return { ...state, transcriptionStatus: checks < 3 ? 'IN_PROGRESS' : 'COMPLETED' };
      }
      if (step === 'generateNote') return { ...state, noteId: 'note_1' };
      return { ...state, jobName: 'job_1' };
    });

    expect(outcome).toEqual({ ok: true, result: { ...INPUT, jobName: 'job_1', transcriptionStatus: 'COMPLETED', noteId: 'note_1' } });
    expect(steps).toEqual(['startTranscription', 'checkTranscription', 'checkTranscription', 'checkTranscription', 'generateNote']);
  });

  it('sends a FAILED transcription job to RecordFailure and ends failed', async () => {
    const { outcome, steps } = await execute(async ({ step, state }) =>
      step === 'checkTranscription' ? { ...state, transcriptionStatus: 'FAILED' } : state,
    );

    expect(!outcome.ok && (outcome.error.cause as Error).name).toBe('TranscriptionFailed');
    expect(steps).toEqual(['startTranscription', 'checkTranscription', 'recordFailure']);
  });

  it('retries a Lambda service error instead of failing the transcription', async () => {
    let attempts = 0;
    const { outcome, steps } = await execute(async ({ step, state }) => {
      if (step === 'startTranscription' && ++attempts === 1) {
        throw Object.assign(new Error('Rate exceeded'), { name: 'Lambda.TooManyRequestsException' });
      }
      if (step === 'checkTranscription') return { ...state, transcriptionStatus: 'COMPLETED' };
      return state;
    });

    expect(outcome.ok).toBe(true);
    expect(steps).toEqual(['startTranscription', 'startTranscription', 'checkTranscription', 'generateNote']);
  });
});
