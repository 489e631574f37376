import { PatientFullInput, PatientInput } from '../../shared/patients/patient-schema.js';
import { ValidationError } from '../lib/errors.js';
import { zodFieldErrors } from '../lib/http/zod-errors.js';

/**
 * The body rules depend on the `fullValidation` query flag, so the route declares the body as
 * unknown and parses it here with the same error shape as the group handler's parse.
 */
export function parsePatientInput(body: unknown, fullValidation: boolean): PatientInput {
  const schema = fullValidation ? PatientFullInput : PatientInput;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const fieldErrors = zodFieldErrors(result.error);
  const [path, message] = Object.entries(fieldErrors)[0] ?? ['body', 'is invalid'];
  throw new ValidationError(path === 'body' ? message : `${path}: ${message}`, fieldErrors);
}
