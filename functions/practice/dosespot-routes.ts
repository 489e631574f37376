/** The DoseSpot routes of the practice group, loaded on their first request (handler.ts): most users never open DoseSpot. */
import { DoseSpotSsoQuery, DoseSpotSyncQuery, DoseSpotSyncTasksQuery } from '../../shared/partners/dosespot.js';
import { route } from '../lib/http/group-handler.js';
import { doseSpotSso } from './dosespot-sso.js';
import { listDoseSpotSyncTasks, syncPatientRx } from './dosespot-sync.js';

export const DOSESPOT_ROUTES = {
  // Spec shell §2.6 ePrescribe: prescribers only (the use case checks the caller's prescriber type).
  'GET /v2/practices/sso/dosespot': route({
    query: DoseSpotSsoQuery,
    run: ({ auth, query }) => doseSpotSso(auth, query),
  }),
  // syncPatientRx on demand (and when the chart's DoseSpot window returns); folded under the users/ key so it adds no API route.
  'POST /v1/practices/users/me/dosespot-sync': route({
    query: DoseSpotSyncQuery,
    run: ({ auth, query }) => syncPatientRx(auth, query.patientId),
  }),
  // The syncPatientRx background task records (spec shell §3 statuses), hourly and on-demand runs; folded like the sync.
  'GET /v1/practices/users/me/dosespot-sync': route({
    query: DoseSpotSyncTasksQuery,
    run: ({ auth, query }) => listDoseSpotSyncTasks(auth, query),
  }),
};
