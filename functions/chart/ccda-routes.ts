/** The C-CDA import routes of the chart group, loaded with the first of them a container serves (handler.ts). */
import { PatientChartParams } from '../../shared/chart/sections.js';
import { route } from '../lib/http/group-handler.js';
import { CcdaImportBody, importCcda, previewCcdaImport } from './ccda/import-ccda.js';
import type { CCDA_ROUTE_KEYS } from './routes.js';

export const CCDA_ROUTES = {
  'POST /v1/patients/{patientId}/ccda-import-preview': route({
    params: PatientChartParams,
    body: CcdaImportBody,
    permission: 'chart.fhir',
    run: ({ auth, params, body }) => previewCcdaImport(auth, params.patientId, body),
  }),
  'POST /v1/patients/{patientId}/ccda-import': route({
    params: PatientChartParams,
    body: CcdaImportBody,
    permission: 'chart.fhir',
    run: ({ auth, params, body }) => importCcda(auth, params.patientId, body),
  }),
} satisfies Record<(typeof CCDA_ROUTE_KEYS)[number], unknown>;
