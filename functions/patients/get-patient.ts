import type { Patient } from '../../shared/patients/patient-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { NotFoundError } from '../lib/errors.js';
import { getPatient, PATIENT_NOT_FOUND } from '../data/patients/patient-repository.js';

export async function getPatientById(auth: AuthContext, patientId: string): Promise<Patient> {
  const patient = await getPatient(auth.practiceId, patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  await writeAudit(auth, { action: 'read', entity: 'patient', entityId: patientId, patientId });
  return patient;
}
