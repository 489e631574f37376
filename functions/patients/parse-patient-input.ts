import { PatientFullInput, PatientInput } from '../../shared/patients/patient-schema.js';
import { parseOrThrow } from '../lib/http/zod-errors.js';

/**
 * The body rules depend on the `fullValidation` query flag, so the route declares the body as
 * unknown and parses it here with the same error shape as the group handler's parse.
 */
export function parsePatientInput(body: unknown, fullValidation: boolean): PatientInput {
  return parseOrThrow<PatientInput>(fullValidation ? PatientFullInput : PatientInput, body);
}
