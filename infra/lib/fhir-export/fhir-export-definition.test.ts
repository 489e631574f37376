import { StateMachine, type RunOptions } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import type { FhirBulkState, FhirBulkWorkerEvent } from '../../../functions/core/fhir-bulk/bulk-steps.js';
import { fhirExportDefinition, FHIR_EXPORT_STATES } from './fhir-export-definition.js';

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

const CHART_ARN = 'arn:aws:lambda:us-east-1:111122223333:function:tidewell-demo-chart';
type TaskHandler = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>[string];

async function execute(run: (event: FhirBulkWorkerEvent) => Promise<FhirBulkState>) {
  const definition = fhirExportDefinition({ worker: CHART_ARN });
  const calls: FhirBulkWorkerEvent[] = [];
  const invoke = async (input: unknown) => {
    const { FunctionName, Payload } = input as { FunctionName: string; Payload: FhirBulkWorkerEvent };
    expect(FunctionName).toBe(CHART_ARN);
    calls.push(Payload);
    return { Payload: await run(Payload) };
  };
  const tasks = Object.entries(definition.States)
    .filter(([, s]) => (s as { Type: string }).Type === 'Task')
    .map(([n]) => n);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const execution = new StateMachine(definition as any).run(
    { practiceId: 'prc', exportId: 'exp-1', attempt: 1 },
    {
      overrides: {
        taskResourceLocalHandlers: Object.fromEntries(tasks.map((n) => [n, invoke as unknown as TaskHandler])),
        retryIntervalOverrides: Object.fromEntries(tasks.map((n) => [n, 0])),
      },
    },
  );
  const outcome = await execution.result.then(
    () => ({ ok: true as const }),
    (error: Error) => ({ ok: false as const, error }),
  );
  return { outcome, steps: calls.map((c) => `${c.fhirBulkStep}${c.state.batch !== undefined ? `:${c.state.batch}` : ''}`), calls };
}

describe('the practice FHIR export state machine', () => {
  it('loops one Lambda call per batch until the listing is done, then writes the manifest', async () => {
    const { outcome, steps } = await execute(async ({ fhirBulkStep, state }) => {
      if (fhirBulkStep === 'begin') return { ...state, batch: 0, done: false };
      if (fhirBulkStep === 'batch') return { ...state, batch: state.batch! + 1, done: state.batch === 2 };
      return { ...state, done: true };
    });
    expect(outcome.ok).toBe(true);
    expect(steps).toEqual(['begin', 'batch:0', 'batch:1', 'batch:2', 'finish:3']);
  });

  it('a batch that keeps failing is retried, then recorded with its error and the run fails', async () => {
    let attempts = 0;
    const { outcome, steps, calls } = await execute(async ({ fhirBulkStep, state }) => {
      if (fhirBulkStep === 'begin') return { ...state, batch: 0, done: false };
      if (fhirBulkStep === 'batch') {
        attempts++;
        throw Object.assign(new Error('Patient not found'), { name: 'NotFoundError' });
      }
      return state;
    });
    expect(outcome.ok).toBe(false);
    expect(attempts).toBe(4);
    expect(steps.at(-1)).toBe('recordFailure:0');
    expect(calls.at(-1)!.state.error?.Error).toBe('NotFoundError');
    expect(fhirExportDefinition({ worker: CHART_ARN }).States[FHIR_EXPORT_STATES.failed]).toMatchObject({ Type: 'Fail' });
  });

  it('a superseded run is recorded at once, without retries', async () => {
    let attempts = 0;
    const { steps } = await execute(async ({ fhirBulkStep, state }) => {
      if (fhirBulkStep === 'recordFailure') return state;
      attempts++;
      throw Object.assign(new Error('A newer run of this export took over.'), { name: 'FhirBulkRunSuperseded' });
    });
    expect(attempts).toBe(1);
    expect(steps).toEqual(['begin', 'recordFailure']);
  });
});
