import type { PatientListQuery, PatientListResponse } from '../../shared/patients/patient-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { patientIndex } from './patient-index-cache.js';
import { getPatientsByIds } from './patient-repository.js';

/** A page of patients of one status in last name, first name order. */
export async function listPatients(auth: AuthContext, query: Omit<PatientListQuery, 'q'>): Promise<PatientListResponse> {
  const entries = await patientIndex(auth.practiceId, query.status);
  const page = entries.slice(query.offset, query.offset + query.limit);
  const items = await getPatientsByIds(auth.practiceId, page.map((e) => e.id));
  await writeAudit(auth, { action: 'list', entity: 'patient', count: items.length });
  return { items, total: entries.length, limit: query.limit, offset: query.offset };
}
