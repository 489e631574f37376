export const PATIENT_ROUTES = [
  'GET /v1/patients',
  'POST /v1/patients',
  'GET /v1/patients/{patientId}',
  'PUT /v1/patients/{patientId}',
  'POST /v1/patients/{patientId}/archive',
  'GET /v1/patients/{patientId}/access-history',
] as const;
export type PatientRouteKey = (typeof PATIENT_ROUTES)[number];
