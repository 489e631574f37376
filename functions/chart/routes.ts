const P1 = '/v1/patients/{patientId}';
const P2 = '/v2/patients/{patientId}';

/** Sections with list, create, update and delete at <prefix>/<path> and <prefix>/<path>/{ident}. */
export const CRUD_SECTION_PATHS = ['allergies', 'diagnoses', 'medications', 'surgeries', 'family-history', 'social-history', 'general', 'vaccines'] as const;

export const CHART_ROUTES = [
  ...CRUD_SECTION_PATHS.flatMap((s) => [`GET ${P1}/${s}`, `POST ${P1}/${s}`, `PUT ${P1}/${s}/{ident}`, `DELETE ${P1}/${s}/{ident}`] as const),
  `GET ${P1}/freeform-medications`,
  `POST ${P1}/freeform-medications`,
  `PUT ${P1}/freeform-medications/{ident}`,
  `DELETE ${P1}/freeform-medications/{ident}`,
  `POST ${P1}/vaccines/groups`,
  `PUT ${P1}/vaccines/groups/{groupId}`,
  `DELETE ${P1}/vaccines/groups/{groupId}`,
  `POST ${P1}/general-groups`,
  `PUT ${P1}/general-groups/{groupId}`,
  `DELETE ${P1}/general-groups/{groupId}`,
  `GET ${P2}/medical`,
  `GET ${P2}/history/social`,
  `GET ${P2}/history/family`,
  `GET ${P2}/general-info`,
  `POST ${P2}/medication`,
  `POST ${P2}/map-health-history`,
  'GET /v1/icd-10-codes',
  'GET /v1/vaccine-codes',
  'GET /v1/vaccine-manufacturers',
] as const;
export type ChartRouteKey = (typeof CHART_ROUTES)[number];
