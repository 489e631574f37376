/** The FHIR export and import of a chart, as the chart page shows them. */
export interface FhirExportResult {
  /** An expiring link to the zip (bundle.json and the files). */
  url: string;
  fileName: string;
  resources: number;
  files: number;
  /** Files named on notes but gone from storage (listed in the zip's missing-files.txt). */
  missingFiles: number;
  bytes: number;
  expiresInSeconds: number;
}

export const FHIR_MESSAGES = {
  exportChart: 'Export chart (FHIR)',
  exporting: 'Exporting…',
  exported: (resources: number, files: number) => `Chart exported: ${resources} FHIR resources and ${files} files.`,
  exportFailed: 'The chart could not be exported. Try again.',
} as const;
