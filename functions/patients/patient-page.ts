import type { Patient } from '../../shared/patients/patient-schema.js';
import type { PreparedPatient } from '../../shared/patients/patient-search.js';
import { getPatientsByIds } from '../data/patients/patient-repository.js';

/**
 * The full patients of one page. A settled index holds current items; otherwise (a write less
 * than a second ago, whose index entry may lag) the page is read consistently from the table.
 */
export async function pagePatients(
  practiceId: string,
  entries: readonly PreparedPatient<Patient>[],
  settled: boolean,
  offset: number,
  limit: number,
): Promise<Patient[]> {
  const page = entries.slice(offset, offset + limit);
  if (settled) return page.map((e) => e.patient);
  return getPatientsByIds(
    practiceId,
    page.map((e) => e.patient.id),
  );
}
