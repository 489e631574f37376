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

/** Each batch's list of the files it copied, beside (not in) the export's folder: the manifest is made from them. */
export const bulkFileIndexFolder = (exportId: string) => `exports/fhir/bulk-index/${exportId}/`;
export const fileIndexName = (batch: number) => `files.${String(batch).padStart(4, '0')}.json`;

/** The manifest's extension listing the attached files (the Bulk Data manifest's `extension` is keyed by URL). */
export const BULK_FILES_EXTENSION = 'https://tidewell.health/fhir/bulk/files';

/** One attached file as a batch lists it, and the manifest after it. */
export interface BulkFileEntry {
  url: string;
  contentType: string;
  size: number;
  patient: { reference: string };
}

/**
 * A file of the export as the API serves it (GET …/fhir-exports/{exportId}/files/{path+}), with the
 * bearer token: `path` is relative to the export's folder, e.g. `Patient.0000.ndjson` or `files/<patientId>/0001-scan.pdf`.
 */
export function bulkFileUrl(apiBase: string, exportId: string, path: string): string {
  return `${apiBase}/v1/practices/fhir-exports/${encodeURIComponent(exportId)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The kick-off URL's base (scheme, host and the path the API is served under), for a record written before it kept one. */
export function apiBaseOf(record: { apiBase?: string; request: string }): string {
  return record.apiBase ?? record.request.replace(/\/v1\/practices\/fhir-exports$/, '');
}
