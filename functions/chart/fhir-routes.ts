/** The FHIR routes of the chart group, loaded with the first of them a container serves (handler.ts). */
import { PatientChartParams } from '../../shared/chart/sections.js';
import { route } from '../lib/http/group-handler.js';
import { exportChart } from '../core/fhir/export-chart.js';
import { FhirImportBody, importBundle, previewImport } from '../core/fhir/import-chart.js';
import type { FHIR_ROUTE_KEYS } from './routes.js';

export const FHIR_ROUTES = {
  'GET /v1/patients/{patientId}/fhir-export': route({
    params: PatientChartParams,
    permission: 'chart.fhir',
    run: ({ auth, params }) => exportChart(auth, params.patientId),
  }),
  'POST /v1/patients/{patientId}/fhir-import-preview': route({
    params: PatientChartParams,
    body: FhirImportBody,
    permission: 'chart.fhir',
    run: ({ auth, params, body }) => previewImport(auth, params.patientId, body),
  }),
  'POST /v1/patients/{patientId}/fhir-import': route({
    params: PatientChartParams,
    body: FhirImportBody,
    permission: 'chart.fhir',
    run: ({ auth, params, body }) => importBundle(auth, params.patientId, body),
  }),
} satisfies Record<(typeof FHIR_ROUTE_KEYS)[number], unknown>;
