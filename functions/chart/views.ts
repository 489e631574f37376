import type { MedicalHistoryEntry } from '../../shared/chart/sections.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { listSectionItems } from '../core/chart/section-crud.js';
import { DIAGNOSES } from '../core/chart/sections.js';

/** GET /v2/patients/{id}/medical: the medical-history projection of the conditions (spec §3 "Medical history"). */
export async function medicalHistory(auth: AuthContext, patientId: string): Promise<{ items: MedicalHistoryEntry[] }> {
  const diagnoses = await listSectionItems(auth, DIAGNOSES, patientId);
  return {
    items: diagnoses.map(({ ident, name, description, date, endDate, active, pinned }) => ({ ident, name, description, date, endDate, active, pinned })),
  };
}
