/** The whole-practice FHIR export (Settings > Data export): admins only, loaded on the first request (handler.ts). */
import { FhirBulkExportParams, FhirBulkFileParams } from '../../shared/chart/fhir-bulk.js';
import { route } from '../lib/http/group-handler.js';
import { bulkExportFile, getBulkExportView, listBulkExportViews, resumeBulkExport, startBulkExport } from '../core/fhir-bulk/bulk-exports.js';
import type { FHIR_BULK_ROUTE_KEYS } from './routes.js';

export const FHIR_BULK_ROUTES = {
  'GET /v1/practices/fhir-exports': route({
    permission: 'practice.fhir.export',
    run: ({ auth }) => listBulkExportViews(auth),
  }),
  'POST /v1/practices/fhir-exports': route({
    permission: 'practice.fhir.export',
    status: 202,
    run: ({ auth, event }) => startBulkExport(auth, event),
  }),
  'GET /v1/practices/fhir-exports/{exportId}': route({
    params: FhirBulkExportParams,
    permission: 'practice.fhir.export',
    run: ({ auth, params }) => getBulkExportView(auth, params.exportId),
  }),
  'POST /v1/practices/fhir-exports/{exportId}/resume': route({
    params: FhirBulkExportParams,
    permission: 'practice.fhir.export',
    status: 202,
    run: ({ auth, params }) => resumeBulkExport(auth, params.exportId),
  }),
  // The stored manifest's urls: a redirect to a 15-minute link (bulk-exports.ts says why).
  'GET /v1/practices/fhir-exports/{exportId}/files/{path+}': route({
    params: FhirBulkFileParams,
    permission: 'practice.fhir.export',
    run: ({ auth, params }) => bulkExportFile(auth, params.exportId, params.path),
  }),
} satisfies Record<(typeof FHIR_BULK_ROUTE_KEYS)[number], unknown>;
