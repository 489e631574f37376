import type { PatientListQuery, PatientListResponse } from '../../shared/patients/patient-schema.js';
import { rankPatients } from '../../shared/patients/patient-search.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { patientIndex } from './patient-index-cache.js';
import { getPatientsByIds } from './patient-repository.js';

/**
 * Name or phone search (spec shell §5), best matches first, paged like the list. Ranking runs on
 * the cached search fields; only the returned page is read in full.
 */
export async function searchPatients(auth: AuthContext, query: PatientListQuery & { q: string }): Promise<PatientListResponse> {
  const entries = await patientIndex(auth.practiceId, query.status);
  const matches = rankPatients(query.q, entries);
  const page = matches.slice(query.offset, query.offset + query.limit);
  const items = await getPatientsByIds(auth.practiceId, page.map((e) => e.id));
  await writeAudit(auth, { action: 'search', entity: 'patient', count: items.length });
  return { items, total: matches.length, limit: query.limit, offset: query.offset };
}
