import type { FhirExportResult, FhirImportPreview, FhirImportResult } from '../../../../../shared/chart/fhir.js';
import type { FhirBulkExport, FhirBulkExportView } from '../../../../../shared/chart/fhir-bulk.js';
import {
  FhirBulkExportAnswer,
  FhirBulkExportListAnswer,
  FhirBulkExportViewAnswer,
  FhirExportAnswer,
  FhirImportAnswer,
  FhirImportPreviewAnswer,
  PracticeImportAnswer,
} from '../../../../../shared/chart/fhir-responses.js';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';

const BULK = '/v1/practices/fhir-exports';

/** One patient's chart as a FHIR bundle zip, with its download link. */
export function exportChartFhir(patientId: string): Promise<FhirExportResult> {
  return apiRequest({ path: `/v1/patients/${encodeURIComponent(patientId)}/fhir-export` }, FhirExportAnswer);
}

/** What an import at `path` (the patient's fhir-import or ccda-import) would add, without adding it. */
export function previewChartImport(path: string, body: unknown): Promise<FhirImportPreview> {
  return apiRequest({ method: 'POST', path: `${path}-preview`, body }, FhirImportPreviewAnswer);
}

export function importChart(path: string, body: unknown): Promise<FhirImportResult> {
  return apiRequest({ method: 'POST', path, body }, FhirImportAnswer);
}

export async function fetchBulkExports(signal?: AbortSignal): Promise<{ exports: FhirBulkExport[] }> {
  return apiRequest({ path: BULK, signal }, FhirBulkExportListAnswer);
}

export function fetchBulkExport(exportId: string, signal?: AbortSignal): Promise<FhirBulkExportView> {
  return apiRequest({ path: `${BULK}/${encodeURIComponent(exportId)}`, signal }, FhirBulkExportViewAnswer);
}

export function startBulkExport(): Promise<FhirBulkExport> {
  return apiRequest({ method: 'POST', path: BULK }, FhirBulkExportAnswer);
}

export function resumeBulkExport(exportId: string): Promise<FhirBulkExport> {
  return apiRequest({ method: 'POST', path: `${BULK}/${encodeURIComponent(exportId)}/resume` }, FhirBulkExportAnswer);
}

/** A practice import's call as the shared run wants it: every answer with its status, a refusal too, never thrown. */
export async function practiceImportCall(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  try {
    return { status: 200, body: await apiRequest({ method: method as 'GET', path, body }, PracticeImportAnswer) };
  } catch (error) {
    if (isApiError(error)) return { status: error.status === 200 ? 500 : error.status, body: { message: error.message } };
    throw error;
  }
}
