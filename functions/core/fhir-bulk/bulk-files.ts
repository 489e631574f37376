/**
 * Where the export's files are served and listed: the download route's urls, the manifest's list
 * of attached files and each batch's part of it. Used by the export's routes and its worker, both
 * loaded on first use (the chart handler's cold start reads bulk-steps.ts only).
 */

/**
 * Each batch's index, beside (not in) the export's folder: the files it copied, which the manifest
 * lists, and the patients it wrote, whom a download of its NDJSON files is audited for.
 */
export const bulkFileIndexFolder = (exportId: string) => `exports/fhir/bulk-index/${exportId}/`;
export const fileIndexName = (batch: number) => `batch.${String(batch).padStart(4, '0')}.json`;

export interface BulkBatchIndex {
  patientIds: string[];
  files: BulkFileEntry[];
  /** Attached files a note names that storage no longer holds (absent in indexes of older exports). */
  missing?: BulkMissingFile[];
}

/** An attached file the export could not copy: its attachment url points nowhere, and the manifest's `error` says so. */
export interface BulkMissingFile {
  url: string;
  name: string;
  patient: { reference: string };
}

/** One OperationOutcome per missing file, as the Bulk Data manifest's `error` files hold them. */
export function missingFileOutcome(m: BulkMissingFile) {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'not-found',
        diagnostics: `The file "${m.name}" of ${m.patient.reference} is not in storage, so its attachment url (${m.url}) has nothing to serve.`,
        expression: [m.patient.reference],
      },
    ],
  };
}

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
