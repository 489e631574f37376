/**
 * What the FHIR export and import endpoints answer (fhir.ts, fhir-bulk.ts), read by the web client.
 * Kept apart so the Lambdas that build these answers from the interfaces do not bundle the schemas.
 */
import * as z from '../zod.js';
import { FHIR_BULK_STATUSES } from './fhir-bulk.js';

/** GET /v1/patients/{patientId}/fhir-export. */
export const FhirExportAnswer = z.object({
  url: z.string(),
  fileName: z.string(),
  resources: z.number(),
  files: z.number(),
  missingFiles: z.number(),
  bytes: z.number(),
  expiresInSeconds: z.number(),
});

const FhirImportItem = z.object({
  resourceType: z.string(),
  summary: z.string(),
  action: z.enum(['add', 'present', 'skip']),
  reason: z.optional(z.string()),
  section: z.optional(z.string()),
});

/** POST …/fhir-import-preview and …/ccda-import-preview. */
export const FhirImportPreviewAnswer = z.object({
  sourcePatient: z.optional(z.string()),
  title: z.optional(z.string()),
  add: z.number(),
  present: z.number(),
  skip: z.number(),
  items: z.array(FhirImportItem),
});

/** POST …/fhir-import and …/ccda-import. */
export const FhirImportAnswer = z.object({ added: z.number(), present: z.number(), skipped: z.number(), items: z.array(FhirImportItem) });

/** POST /v1/practices/fhir-exports and …/resume: the export as started. */
export const FhirBulkExportAnswer = z.object({
  exportId: z.string(),
  status: z.enum(FHIR_BULK_STATUSES),
  startedAt: z.string(),
  startedBy: z.object({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(['admin', 'provider', 'employee']),
    superUser: z.optional(z.boolean()),
  }),
  finishedAt: z.optional(z.string()),
  patientsDone: z.number(),
  patientsTotal: z.number(),
  batchesDone: z.number(),
  resources: z.number(),
  filesCopied: z.number(),
  filesMissing: z.optional(z.number()),
  bytes: z.number(),
  error: z.optional(z.string()),
  attempt: z.number(),
  resourceCounts: z.record(z.string(), z.number()),
});

/** GET /v1/practices/fhir-exports/{exportId}: a completed one adds its manifest and expiring links. */
export const FhirBulkExportViewAnswer = z.extend(FhirBulkExportAnswer, {
  manifest: z.optional(
    z.object({
      transactionTime: z.string(),
      request: z.string(),
      requiresAccessToken: z.boolean(),
      output: z.array(z.object({ type: z.string(), url: z.string(), count: z.optional(z.number()) })),
      error: z.array(z.object({ type: z.string(), url: z.string() })),
      extension: z.optional(z.record(z.string(), z.unknown())),
    }),
  ),
  manifestUrl: z.optional(z.string()),
  files: z.optional(z.array(z.object({ type: z.string(), name: z.string(), url: z.string(), bytes: z.number() }))),
  linksExpireInSeconds: z.optional(z.number()),
});

/** GET /v1/practices/fhir-exports. */
export const FhirBulkExportListAnswer = z.object({ exports: z.array(FhirBulkExportAnswer) });

/** Any answer of a practice import's run: the run (shared/fhir/practice-import) reads each one itself. */
export const PracticeImportAnswer = z.unknown();
