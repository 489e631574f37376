export const PATIENT_ROUTES = [
  'GET /v1/patients',
  'POST /v1/patients',
  'GET /v1/patients/{patientId}',
  'PUT /v1/patients/{patientId}',
  'POST /v1/patients/{patientId}/archive',
  'GET /v1/patients/{patientId}/access-history',
  'POST /v1/patients/{patientId}/accept_hipaa_authorization',
  'POST /v1/patients/{patientId}/patient_documents/request_acceptance',
] as const;
export type PatientRouteKey = (typeof PATIENT_ROUTES)[number];
