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

/** One resource of an imported bundle: added, already in the chart (an earlier import), or left out and why. */
export interface FhirImportItem {
  resourceType: string;
  summary: string;
  action: 'add' | 'present' | 'skip';
  reason?: string;
  /** The document section it comes from (a C-CDA import). */
  section?: string;
}

export interface FhirImportPreview {
  /** The name on the bundle's Patient, to check it is the right person. */
  sourcePatient?: string;
  /** A C-CDA document's title. */
  title?: string;
  add: number;
  present: number;
  skip: number;
  items: FhirImportItem[];
}

export interface FhirImportResult {
  added: number;
  present: number;
  skipped: number;
  items: FhirImportItem[];
}

export const FHIR_IMPORT_MESSAGES = {
  importBundle: 'Import FHIR bundle',
  chooseFile: 'Choose a FHIR export (.zip or .json)',
  notABundle: 'The file is not a FHIR Bundle',
  preview: (add: number, present: number, skip: number) => `${add} to add, ${present} already in this chart, ${skip} left out.`,
  confirm: 'Import',
  imported: (added: number) => `Imported ${added} ${added === 1 ? 'item' : 'items'} into this chart.`,
  importFailed: 'The bundle could not be imported. Try again.',
} as const;

export const CCDA_IMPORT_MESSAGES = {
  importCcda: 'Import C-CDA',
  chooseFile: 'Choose a C-CDA document (.xml)',
  fromDrive: 'Or choose one from the file drive',
  driveEmpty: 'No XML files in this folder.',
  driveUp: 'Up one folder',
  driveFailed: 'The file drive could not be listed. Try again.',
  notCcda: 'The file is not a C-CDA document',
  importFailed: 'The document could not be imported. Try again.',
} as const;
