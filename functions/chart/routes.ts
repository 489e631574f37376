const P1 = '/v1/patients/{patientId}';
const P2 = '/v2/patients/{patientId}';

/** Sections with list, create, update and delete at <prefix>/<path> and <prefix>/<path>/{ident}. */
export const CRUD_SECTION_PATHS = ['allergies', 'diagnoses', 'medications', 'surgeries', 'family-history', 'social-history', 'general', 'vaccines'] as const;

/** Allergen search, the allergy and interaction checks and the before-e-prescribing list: loaded with the first of them (drug-safety-routes.ts). */
export const DRUG_SAFETY_ROUTE_KEYS = [
  'GET /v1/allergens',
  'GET /v1/drug-safety-sources',
  `POST ${P1}/drug-safety-check`,
  `GET ${P1}/eprescribe-review`,
  `POST ${P1}/eprescribe-review`,
] as const;

/** FHIR export and import of a chart: loaded with the first of them a container serves (fhir-routes.ts). */
export const FHIR_ROUTE_KEYS = [`GET ${P1}/fhir-export`, `POST ${P1}/fhir-import-preview`, `POST ${P1}/fhir-import`] as const;

/** C-CDA import of a chart: loaded with the first of them a container serves (ccda-routes.ts). */
export const CCDA_ROUTE_KEYS = [`POST ${P1}/ccda-import-preview`, `POST ${P1}/ccda-import`] as const;

/** Saving and deleting vaccine series and general-information groups: loaded with the first of them (group-routes.ts). */
export const GROUP_ROUTE_KEYS = [
  `POST ${P1}/vaccines/groups`,
  `PUT ${P1}/vaccines/groups/{groupId}`,
  `DELETE ${P1}/vaccines/groups/{groupId}`,
  `POST ${P1}/general-groups`,
  `PUT ${P1}/general-groups/{groupId}`,
  `DELETE ${P1}/general-groups/{groupId}`,
] as const;

export const CHART_ROUTES = [
  ...CRUD_SECTION_PATHS.flatMap((s) => [`GET ${P1}/${s}`, `POST ${P1}/${s}`, `PUT ${P1}/${s}/{ident}`, `DELETE ${P1}/${s}/{ident}`] as const),
  `GET ${P1}/freeform-medications`,
  `POST ${P1}/freeform-medications`,
  `PUT ${P1}/freeform-medications/{ident}`,
  `DELETE ${P1}/freeform-medications/{ident}`,
  ...GROUP_ROUTE_KEYS,
  `GET ${P2}/medical`,
  `GET ${P2}/history/social`,
  `GET ${P2}/history/family`,
  `GET ${P2}/general-info`,
  `POST ${P2}/medication`,
  `POST ${P2}/map-health-history`,
  'GET /v1/icd-10-codes',
  'GET /v1/vaccine-codes',
  'GET /v1/vaccine-manufacturers',
  ...FHIR_ROUTE_KEYS,
  ...CCDA_ROUTE_KEYS,
  ...DRUG_SAFETY_ROUTE_KEYS,
] as const;
export type ChartRouteKey = (typeof CHART_ROUTES)[number];
