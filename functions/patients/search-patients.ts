import type { PatientListQuery, PatientListResponse } from '../../shared/patients/patient-schema.js';
import { rankPrepared } from '../../shared/patients/patient-search.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { patientIndex } from '../data/patients/patient-index-cache.js';
import { pagePatients } from './patient-page.js';

/** Name or phone search (spec shell §5), best matches first with why each matched, paged like the list. */
export async function searchPatients(auth: AuthContext, query: PatientListQuery & { q: string }): Promise<PatientListResponse> {
  const index = await patientIndex(auth.practiceId, query.status);
  const ranked = rankPrepared(query.q, index.entries);
  const items = await pagePatients(
    auth.practiceId,
    ranked.map((r) => r.entry),
    index.settled,
    query.offset,
    query.limit,
  );
  const reasons = new Map(ranked.slice(query.offset, query.offset + query.limit).map((r) => [r.entry.patient.id, r.reason]));
  // One reason per returned item, in its order.
  const matches = items.flatMap((item) => {
    const reason = reasons.get(item.id);
    return reason ? [{ ...reason, id: item.id }] : [];
  });
  await writeAudit(auth, { action: 'search', entity: 'patient', count: items.length, patientIds: items.map((p) => p.id) });
  return { items, total: ranked.length, limit: query.limit, offset: query.offset, matches };
}
