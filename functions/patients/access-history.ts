import type { AccessHistoryPage, AccessHistoryQuery } from '../../shared/audit/access-history.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { NotFoundError } from '../lib/errors.js';
import { patientAuditPage } from '../data/patients/access-history.js';
import { getPatient, PATIENT_NOT_FOUND } from '../data/patients/patient-repository.js';

/**
 * GET /v1/patients/{patientId}/access-history: every audit entry naming the patient (reads,
 * lists, changes, file and notification access, refused attempts), newest first, from the
 * patient's audit partition (gsi1 AUDIT#PATIENT#<id>). Reading it is itself recorded.
 */
export async function patientAccessHistory(auth: AuthContext, patientId: string, query: AccessHistoryQuery): Promise<AccessHistoryPage> {
  if (!(await getPatient(auth.practiceId, patientId))) throw new NotFoundError(PATIENT_NOT_FOUND);
  const { entries, more } = await patientAuditPage(patientId, query.before, query.limit);
  await writeAudit(auth, { action: 'read', entity: 'access_history', patientId });
  const last = entries.at(-1);
  return { entries, ...(more && last ? { next: last.at } : {}) };
}
