import type { PatientListQuery, PatientListResponse } from '../../shared/patients/patient-schema.js';
import { rankPrepared } from '../../shared/patients/patient-search.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { patientIndex } from './patient-index-cache.js';
import { pagePatients } from './patient-page.js';

/** Name or phone search (spec shell §5), best matches first, paged like the list. */
export async function searchPatients(auth: AuthContext, query: PatientListQuery & { q: string }): Promise<PatientListResponse> {
  const index = await patientIndex(auth.practiceId, query.status);
  const matches = rankPrepared(query.q, index.entries);
  const items = await pagePatients(auth.practiceId, matches, index.settled, query.offset, query.limit);
  await writeAudit(auth, { action: 'search', entity: 'patient', count: items.length, patientIds: items.map((p) => p.id) });
  return { items, total: matches.length, limit: query.limit, offset: query.offset };
}
