/** A practice rebuilt from a whole-practice FHIR export (`npm run practice -- import`): admins only, loaded on the first request (handler.ts). */
import { route } from '../lib/http/group-handler.js';
import { importPracticePatient, PracticeImportBody } from '../core/fhir/bulk/bulk-import.js';
import type { FHIR_PRACTICE_IMPORT_ROUTE_KEYS } from './routes.js';

export const FHIR_PRACTICE_IMPORT_ROUTES = {
  'POST /v1/practices/fhir-imports/patients': route({
    body: PracticeImportBody,
    permission: 'practice.fhir.import',
    run: ({ auth, body }) => importPracticePatient(auth, body),
  }),
} satisfies Record<(typeof FHIR_PRACTICE_IMPORT_ROUTE_KEYS)[number], unknown>;
