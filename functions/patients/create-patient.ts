import type { Patient } from '../../shared/patients/patient-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { parsePatientInput } from './parse-patient-input.js';
import { createPatient } from '../data/patients/patient-repository.js';
import { newPatientId } from '../core/patients/patient-id.js';

export async function createPatientFromBody(auth: AuthContext, body: unknown, fullValidation: boolean): Promise<Patient> {
  const input = parsePatientInput(body, fullValidation);
  const patient = await createPatient(auth.practiceId, input.id ?? newPatientId(), input);
  await writeAudit(auth, { action: 'create', entity: 'patient', entityId: patient.id, patientId: patient.id });
  return patient;
}
