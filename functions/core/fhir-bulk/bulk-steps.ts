/**
 * The contract between the FHIR bulk export state machine and the chart group Lambda that runs
 * its steps: the machine invokes the Lambda with `{ fhirBulkStep, state }` and keeps the returned
 * state. Nothing here loads the mappers, so the stack and the chart handler can read it cheaply.
 */
export const FHIR_BULK_STEPS = {
  begin: 'begin',
  batch: 'batch',
  finish: 'finish',
  recordFailure: 'recordFailure',
} as const;

export type FhirBulkStep = (typeof FHIR_BULK_STEPS)[keyof typeof FHIR_BULK_STEPS];

/** What the machine carries between steps: the export, the attempt, and where the patient listing stands. */
export interface FhirBulkState {
  practiceId: string;
  exportId: string;
  attempt: number;
  /** The next batch's number (0-based); its files are named by it, so a batch written twice overwrites itself. */
  batch?: number;
  done?: boolean;
  /** Set by the machine's Catch: the error of the step that failed. */
  error?: { Error?: string; Cause?: string };
}

export interface FhirBulkWorkerEvent {
  fhirBulkStep: FhirBulkStep;
  state: FhirBulkState;
}

export function isFhirBulkEvent(event: unknown): event is FhirBulkWorkerEvent {
  return typeof event === 'object' && event !== null && typeof (event as { fhirBulkStep?: unknown }).fhirBulkStep === 'string';
}

/** Patients per Lambda invocation: a batch of charts stays well inside the group's 29 s timeout (FHIR_BULK_BATCH_SIZE overrides it). */
export const FHIR_BULK_BATCH_SIZE = 50;

/** Errors retrying cannot fix: recorded at once, so the admin sees why and can resume. */
export const FHIR_BULK_PERMANENT_ERRORS = ['FhirBulkExportNotFound', 'FhirBulkRunSuperseded', 'UnknownFhirBulkStep'] as const;

/** The export's folder in the practice's files bucket. */
export const bulkFolder = (exportId: string) => `exports/fhir/bulk/${exportId}/`;

/** One batch's NDJSON file of one resource type. */
export const partName = (type: string, batch: number) => `${type}.${String(batch).padStart(4, '0')}.ndjson`;
