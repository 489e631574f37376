import * as z from '../../shared/zod.js';
import { PatientIdParams, PatientListQuery, PatientWriteQuery } from '../../shared/patients/patient-schema.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import { AccessHistoryQuery } from '../../shared/audit/access-history.js';
import { patientAccessHistory } from './access-history.js';
import { archivePatientById } from './archive-patient.js';
import { createPatientFromBody } from './create-patient.js';
import { getPatientById } from './get-patient.js';
import { acceptHipaa, requestHipaaAcceptance } from './hipaa-authorization.js';
import { listPatients } from './list-patients.js';
import { PATIENT_ROUTES } from './routes.js';
import { searchPatients } from './search-patients.js';
import { updatePatientFromBody } from './update-patient.js';

/** Parsed per request by parsePatientInput, whose rules depend on `?fullValidation=true`. */
const anyBody = z.unknown();

export const handler = groupHandler(PATIENT_ROUTES, {
  'GET /v1/patients': route({
    query: PatientListQuery,
    run: ({ auth, query }) => (query.q ? searchPatients(auth, { ...query, q: query.q }) : listPatients(auth, query)),
  }),
  'POST /v1/patients': route({
    query: PatientWriteQuery,
    body: anyBody,
    status: 201,
    run: ({ auth, query, body }) => createPatientFromBody(auth, body, query.fullValidation ?? false),
  }),
  'GET /v1/patients/{patientId}': route({
    params: PatientIdParams,
    run: ({ auth, params }) => getPatientById(auth, params.patientId),
  }),
  'PUT /v1/patients/{patientId}': route({
    params: PatientIdParams,
    query: PatientWriteQuery,
    body: anyBody,
    run: ({ auth, params, query, body }) => updatePatientFromBody(auth, params.patientId, body, query.fullValidation ?? false),
  }),
  'POST /v1/patients/{patientId}/archive': route({
    params: PatientIdParams,
    permission: 'patient.archive',
    run: ({ auth, params }) => archivePatientById(auth, params.patientId),
  }),
  'GET /v1/patients/{patientId}/access-history': route({
    params: PatientIdParams,
    query: AccessHistoryQuery,
    permission: 'patient.accessHistory.read',
    run: ({ auth, params, query }) => patientAccessHistory(auth, params.patientId, query),
  }),
  'POST /v1/patients/{patientId}/accept_hipaa_authorization': route({
    params: PatientIdParams,
    run: ({ auth, params }) => acceptHipaa(auth, params.patientId),
  }),
  'POST /v1/patients/{patientId}/patient_documents/request_acceptance': route({
    params: PatientIdParams,
    run: ({ auth, params }) => requestHipaaAcceptance(auth, params.patientId),
  }),
});
