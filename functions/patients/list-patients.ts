import type { PatientListQuery, PatientListResponse } from '../../shared/patients/patient-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { patientIndex } from '../data/patients/patient-index-cache.js';
import { pagePatients } from './patient-page.js';

/** A page of patients of one status in last name, first name order. */
export async function listPatients(auth: AuthContext, query: Omit<PatientListQuery, 'q'>): Promise<PatientListResponse> {
  const index = await patientIndex(auth.practiceId, query.status);
  const items = await pagePatients(auth.practiceId, index.entries, index.settled, query.offset, query.limit);
  // One entry naming every patient shown: a page of 100 stays one write (see README, audit).
  await writeAudit(auth, { action: 'list', entity: 'patient', count: items.length, patientIds: items.map((p) => p.id) });
  return { items, total: index.entries.length, limit: query.limit, offset: query.offset };
}
