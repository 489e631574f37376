import * as z from '../../shared/zod.js';
import { CodeKeywordQuery, Icd10SearchQuery } from '../../shared/chart/code-sets.js';
import {
  AddMedicationBody,
  AllergyFields,
  ChartItemParams,
  DiagnosisFields,
  FamilyHistoryFields,
  FreeformMedicationInput,
  GeneralFields,
  MedicationFields,
  PatientChartParams,
  partialWithVersion,
  SocialHistoryFields,
  SurgeryFields,
  VaccineFields,
  versionField,
} from '../../shared/chart/sections.js';
import { groupHandler, HttpResponse, lazyRoute, lazyRoutes, route, type LazyRoute, type RouteSpec } from '../lib/http/group-handler.js';
import { listMvx, searchCvx, searchIcd10 } from './code-lookups.js';
import { listGeneral } from './general-groups.js';
import { isFhirBulkEvent } from '../core/fhir-bulk/bulk-steps.js';
import { addMedicationFromNote } from './medications.js';
import { CCDA_ROUTE_KEYS, CHART_ROUTES, DRUG_SAFETY_ROUTE_KEYS, FHIR_ROUTE_KEYS, GROUP_ROUTE_KEYS, type ChartRouteKey } from './routes.js';
import { createSectionItemFrom, deleteSectionItemOf, listSectionItems, updateSectionItemFrom, type SectionSpec } from '../core/chart/section-crud.js';
import {
  ALLERGIES,
  DIAGNOSES,
  FAMILY_HISTORY,
  FREEFORM_MEDICATIONS,
  GENERAL,
  ICD10_DERIVED,
  MEDICATIONS,
  SURGERIES,
  VACCINES,
} from '../core/chart/sections.js';
import { createSocialHistory, listSocialHistory, SOCIAL_HISTORY, updateSocialHistory } from '../core/chart/social-history.js';
import { listVaccines } from './vaccine-groups.js';
import { medicalHistory as medical } from './views.js';

const P1 = '/v1/patients/{patientId}';
const P2 = '/v2/patients/{patientId}';
const NO_CONTENT = new HttpResponse(204, undefined);

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyRoute = RouteSpec<any, any, any>;

/** GET list, POST create, PUT partial update (only the sent fields, checked with the full rules; optional version), DELETE. */
function crud(
  path: string,
  spec: SectionSpec<any>,
  fields: z.ZodMiniObject<any>,
  opts: { derived?: readonly string[]; keep?: readonly string[] } = {},
): Record<string, AnyRoute> {
  return {
    [`GET ${P1}/${path}`]: route({
      params: PatientChartParams,
      run: async ({ auth, params }) => ({ items: await listSectionItems(auth, spec, params.patientId) }),
    }),
    [`POST ${P1}/${path}`]: route({
      params: PatientChartParams,
      body: spec.input,
      status: 201,
      run: ({ auth, params, body }) => createSectionItemFrom(auth, spec, params.patientId, body),
    }),
    [`PUT ${P1}/${path}/{ident}`]: route({
      params: ChartItemParams,
      body: () => partialWithVersion(fields),
      run: ({ auth, params, body }) => updateSectionItemFrom(auth, spec, params.patientId, params.ident, body as Record<string, unknown>, opts),
    }),
    [`DELETE ${P1}/${path}/{ident}`]: route({
      params: ChartItemParams,
      run: async ({ auth, params }) => {
        await deleteSectionItemOf(auth, spec, params.patientId, params.ident);
        return NO_CONTENT;
      },
    }),
  };
}

const routes: Record<string, AnyRoute | LazyRoute> = {
  ...crud('allergies', ALLERGIES, AllergyFields, { derived: ICD10_DERIVED }),
  ...crud('diagnoses', DIAGNOSES, DiagnosisFields, { derived: ICD10_DERIVED }),
  ...crud('medications', MEDICATIONS, MedicationFields),
  ...crud('surgeries', SURGERIES, SurgeryFields),
  ...crud('family-history', FAMILY_HISTORY, FamilyHistoryFields, { derived: ICD10_DERIVED }),
  ...crud('general', GENERAL, GeneralFields, { derived: ICD10_DERIVED, keep: ['grouping'] }),
  ...crud('vaccines', VACCINES, VaccineFields, { keep: ['grouping'] }),
  ...crud('social-history', SOCIAL_HISTORY, SocialHistoryFields),

  // Overrides of the generic routes where a section has more to it.
  [`GET ${P1}/general`]: route({ params: PatientChartParams, run: ({ auth, params }) => listGeneral(auth, params.patientId) }),
  [`GET ${P1}/vaccines`]: route({ params: PatientChartParams, run: ({ auth, params }) => listVaccines(auth, params.patientId) }),
  [`GET ${P1}/social-history`]: route({
    params: PatientChartParams,
    run: async ({ auth, params }) => ({ items: await listSocialHistory(auth, params.patientId) }),
  }),
  [`POST ${P1}/social-history`]: route({
    params: PatientChartParams,
    body: SOCIAL_HISTORY.input,
    status: 201,
    run: ({ auth, params, body }) => createSocialHistory(auth, params.patientId, body),
  }),
  [`PUT ${P1}/social-history/{ident}`]: route({
    params: ChartItemParams,
    body: () => partialWithVersion(SocialHistoryFields),
    run: ({ auth, params, body }) => updateSocialHistory(auth, params.patientId, params.ident, body as Record<string, unknown>),
  }),

  [`GET ${P1}/freeform-medications`]: route({
    params: PatientChartParams,
    run: async ({ auth, params }) => ({ items: await listSectionItems(auth, FREEFORM_MEDICATIONS, params.patientId) }),
  }),
  [`POST ${P1}/freeform-medications`]: route({
    params: PatientChartParams,
    body: FreeformMedicationInput,
    status: 201,
    run: ({ auth, params, body }) => createSectionItemFrom(auth, FREEFORM_MEDICATIONS, params.patientId, body),
  }),
  // Renaming is the only edit a freeform medication has (its one field is the name).
  [`PUT ${P1}/freeform-medications/{ident}`]: route({
    params: ChartItemParams,
    body: () => z.extend(FreeformMedicationInput, { version: versionField }),
    run: ({ auth, params, body }) => updateSectionItemFrom(auth, FREEFORM_MEDICATIONS, params.patientId, params.ident, body),
  }),
  [`DELETE ${P1}/freeform-medications/{ident}`]: route({
    params: ChartItemParams,
    run: async ({ auth, params }) => {
      await deleteSectionItemOf(auth, FREEFORM_MEDICATIONS, params.patientId, params.ident);
      return NO_CONTENT;
    },
  }),

  [`GET ${P2}/medical`]: route({ params: PatientChartParams, run: ({ auth, params }) => medical(auth, params.patientId) }),
  [`GET ${P2}/history/social`]: route({
    params: PatientChartParams,
    run: async ({ auth, params }) => ({ items: await listSocialHistory(auth, params.patientId) }),
  }),
  [`GET ${P2}/history/family`]: route({
    params: PatientChartParams,
    run: async ({ auth, params }) => ({ items: await listSectionItems(auth, FAMILY_HISTORY, params.patientId) }),
  }),
  [`GET ${P2}/general-info`]: route({ params: PatientChartParams, run: ({ auth, params }) => listGeneral(auth, params.patientId) }),
  [`POST ${P2}/medication`]: route({
    params: PatientChartParams,
    body: AddMedicationBody,
    status: 201,
    run: ({ auth, params, body }) => addMedicationFromNote(auth, params.patientId, body),
  }),

  'GET /v1/icd-10-codes': route({ query: Icd10SearchQuery, run: ({ query }) => searchIcd10(query) }),
  'GET /v1/vaccine-codes': route({ query: CodeKeywordQuery, run: ({ query }) => searchCvx(query) }),
  'GET /v1/vaccine-manufacturers': route({ query: CodeKeywordQuery, run: ({ query }) => listMvx(query) }),
  // The FHIR mappers and the zip library load with the first export or import, never on a cold start.
  ...lazyRoutes(FHIR_ROUTE_KEYS, () => import('./fhir-routes.js').then((m) => m.FHIR_ROUTES)),
  // The C-CDA reader and its XML parser load with the first C-CDA import, never on a cold start.
  ...lazyRoutes(CCDA_ROUTE_KEYS, () => import('./ccda-routes.js').then((m) => m.CCDA_ROUTES)),
  ...lazyRoutes(DRUG_SAFETY_ROUTE_KEYS, () => import('./drug-safety-routes.js').then((m) => m.DRUG_SAFETY_ROUTES)),
  // Saving a group is rare beside reading the lists: its code loads with the first save.
  ...lazyRoutes(GROUP_ROUTE_KEYS, () => import('./group-routes.js').then((m) => m.GROUP_ROUTES)),
};
/* eslint-enable @typescript-eslint/no-explicit-any */

// Add to Health Summary is rare beside chart reads: its code loads with its first request.
const mapHealthHistory = lazyRoute(() => import('./form-mapping.js').then((m) => m.MAP_HEALTH_HISTORY_ROUTE));

const http = groupHandler(CHART_ROUTES, { ...routes, [`POST ${P2}/map-health-history`]: mapHealthHistory } as Record<ChartRouteKey, AnyRoute | LazyRoute>);

/**
 * The practice's FHIR export state machine runs its steps on this function (it holds the mappers),
 * so the export needs no function of its own; the step code loads with the first step.
 */
export const handler = (event: Parameters<typeof http>[0], context: Parameters<typeof http>[1]) =>
  isFhirBulkEvent(event) ? import('../core/fhir-bulk/bulk-worker.js').then((m) => m.runBulkStep(event)) : http(event, context);
