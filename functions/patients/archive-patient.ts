import type { Patient } from '../../shared/patients/patient-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { archivePatient } from '../data/patients/patient-repository.js';

export async function archivePatientById(auth: AuthContext, patientId: string): Promise<Patient> {
  const patient = await archivePatient(auth.practiceId, patientId);
  await writeAudit(auth, { action: 'archive', entity: 'patient', entityId: patientId, patientId });
  return patient;
}
