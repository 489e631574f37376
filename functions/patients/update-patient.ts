import type { Patient } from '../../shared/patients/patient-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { parsePatientInput } from './parse-patient-input.js';
import { updatePatient } from '../data/patients/patient-repository.js';

/** PUT replaces the editable fields; an id in the body is ignored (the path names the patient). */
export async function updatePatientFromBody(auth: AuthContext, patientId: string, body: unknown, fullValidation: boolean): Promise<Patient> {
  const input = parsePatientInput(body, fullValidation);
  const patient = await updatePatient(auth.practiceId, patientId, input);
  await writeAudit(auth, { action: 'update', entity: 'patient', entityId: patientId, patientId });
  return patient;
}
