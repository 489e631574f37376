/** The whole-practice FHIR export (FHIR Bulk Data NDJSON plus its manifest), as Settings shows it. */
import * as z from '../zod.js';

export const FHIR_BULK_STATUSES = ['running', 'completed', 'failed'] as const;
export type FhirBulkStatus = (typeof FHIR_BULK_STATUSES)[number];

/** One NDJSON file of an export: one resource type, one batch of patients. */
export interface FhirBulkFile {
  type: string;
  /** Object name under the export's folder, e.g. `Patient.0003.ndjson`. */
  name: string;
  url: string;
  bytes: number;
}

/** The Bulk Data export manifest (https://hl7.org/fhir/uv/bulkdata/export.html#response---complete-status). */
export interface BulkDataManifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: { type: string; url: string; count?: number }[];
  error: { type: string; url: string }[];
  extension?: Record<string, unknown>;
}

export interface FhirBulkExport {
  exportId: string;
  status: FhirBulkStatus;
  startedAt: string;
  startedBy: { userId: string; name: string; email: string; role: 'admin' | 'provider' | 'employee'; superUser?: boolean };
  finishedAt?: string;
  /** Patients written so far and the count when the export started. */
  patientsDone: number;
  patientsTotal: number;
  batchesDone: number;
  resources: number;
  /** Binaries attached to notes, copied under files/. */
  filesCopied: number;
  /** Attached files not in storage: each is an OperationOutcome in the manifest's `error` file. */
  filesMissing?: number;
  bytes: number;
  /** Why a failed export stopped; it resumes from the batch after the last one written. */
  error?: string;
  /** How many times it was started (1, then one more for each resume). */
  attempt: number;
  /** Resources written so far, by type. */
  resourceCounts: Record<string, number>;
}

/** GET /v1/practices/fhir-exports/{exportId} of a completed export: the manifest with expiring links. */
export interface FhirBulkExportView extends FhirBulkExport {
  /** The stored manifest with each output's url an expiring link (so requiresAccessToken is false). */
  manifest?: BulkDataManifest;
  manifestUrl?: string;
  files?: FhirBulkFile[];
  linksExpireInSeconds?: number;
}

export const FhirBulkExportParams = z.object({
  exportId: z.string().check(z.regex(/^[0-9a-z-]{8,64}$/, 'Export not found')),
});

/** One file of an export: `path` relative to its folder, checked again by the use case (no `.`/`..` segments). */
export const FhirBulkFileParams = z.object({
  exportId: z.string().check(z.regex(/^[0-9a-z-]{8,64}$/, 'Export not found')),
  path: z.string().check(z.minLength(1), z.maxLength(200)),
});

export const FHIR_BULK_MESSAGES = {
  title: 'Practice data export (FHIR)',
  start: 'Export all practice data',
  starting: 'Starting…',
  started: 'The export has started. You will be notified when it is ready.',
  running: (done: number, total: number) => `Exporting… ${done} of ${total} patients`,
  counting: 'Exporting… counting the patients',
  completed: 'The export is ready.',
  failed: (why: string) => `The export stopped: ${why}`,
  resume: 'Resume export',
  resumed: 'The export is resuming from where it stopped.',
  notFound: 'Export not found',
  fileNotFound: 'File not found',
  notReady: 'The export is not ready yet.',
  alreadyRunning: 'An export is already running. Wait for it to finish.',
  notFailed: 'Only a failed export can be resumed.',
  adminsOnly: 'Only admins can export the practice data.',
  ready: 'The practice data export is ready to download in Settings > Data export.',
  noExports: 'No exports yet.',
} as const;
