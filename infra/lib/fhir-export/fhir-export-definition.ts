/**
 * The whole-practice FHIR export state machine, in JSONPath ASL: the stack deploys this object and
 * the local runtime runs the same one. A loop over batches (Batch → MorePatients → Batch) keeps
 * every Lambda call short however many patients the practice has; each task invokes the chart
 * group Lambda with `{ fhirBulkStep, state }` and keeps its returned `Payload` as the next state.
 */
import { FHIR_BULK_PERMANENT_ERRORS, FHIR_BULK_STEPS, type FhirBulkStep } from '../../../functions/core/fhir-bulk/bulk-steps.js';
import { LAMBDA_SERVICE_ERRORS, STEP_RETRY } from '../transcription/transcription-definition.js';

export const FHIR_EXPORT_STATES = {
  begin: 'Begin',
  batch: 'ExportBatch',
  more: 'MorePatients',
  finish: 'WriteManifest',
  recordFailure: 'RecordFailure',
  succeeded: 'Succeeded',
  failed: 'ExportFailed',
} as const;

/** The chart group's own timeout is 29 s; the task's is a little longer so the Lambda's own error is what is recorded. */
export const FHIR_EXPORT_STEP_TIMEOUT_SECONDS = 60;

function invoke(worker: string, step: FhirBulkStep, next: string, pipelineStep: boolean): Record<string, unknown> {
  return {
    Type: 'Task',
    Resource: 'arn:aws:states:::lambda:invoke',
    Parameters: { FunctionName: worker, Payload: { fhirBulkStep: step, 'state.$': '$' } },
    OutputPath: '$.Payload',
    TimeoutSeconds: FHIR_EXPORT_STEP_TIMEOUT_SECONDS,
    Retry: pipelineStep
      ? [
          { ErrorEquals: [...FHIR_BULK_PERMANENT_ERRORS], MaxAttempts: 0 },
          { ErrorEquals: ['States.ALL'], ...STEP_RETRY },
        ]
      : [{ ErrorEquals: LAMBDA_SERVICE_ERRORS, ...STEP_RETRY }],
    // The failing state's input is kept beside the error, so RecordFailure knows the export.
    ...(pipelineStep ? { Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: FHIR_EXPORT_STATES.recordFailure }] } : {}),
    Next: next,
  };
}

export function fhirExportDefinition(functionArns: { worker: string }) {
  const { worker } = functionArns;
  const S = FHIR_EXPORT_STATES;
  return {
    Comment: 'Export every patient of the practice as FHIR Bulk Data NDJSON, batch by batch, then write the manifest and notify the admin.',
    StartAt: S.begin,
    TimeoutSeconds: 24 * 60 * 60,
    States: {
      [S.begin]: invoke(worker, FHIR_BULK_STEPS.begin, S.more, true),
      [S.more]: {
        Type: 'Choice',
        Choices: [{ Variable: '$.done', BooleanEquals: true, Next: S.finish }],
        Default: S.batch,
      },
      [S.batch]: invoke(worker, FHIR_BULK_STEPS.batch, S.more, true),
      [S.finish]: invoke(worker, FHIR_BULK_STEPS.finish, S.succeeded, true),
      [S.succeeded]: { Type: 'Succeed' },
      [S.recordFailure]: invoke(worker, FHIR_BULK_STEPS.recordFailure, S.failed, false),
      [S.failed]: { Type: 'Fail', Error: 'FhirExportFailed', Cause: 'A step of the practice export failed; its reason is on the export (RecordFailure).' },
    },
  };
}
