import type { Patient } from '../../../shared/patients/patient-schema.js';
import { preparePatient, type PreparedPatient } from '../../../shared/patients/patient-search.js';
import { queryPatientsByName, readPatientIndexVersion, type PatientStatus } from './patient-repository.js';

/**
 * GSI reads are eventually consistent: a reload that starts within this long after the last
 * patient write may miss it, so such a load is used only until this much time has passed since
 * the write and then reloaded once. Locally the index is updated synchronously.
 */
export const INDEX_SETTLE_MS = 1000;

export interface PatientIndex {
  /** Name order, each with its search keys computed. */
  entries: PreparedPatient<Patient>[];
  /**
   * Loaded long enough after the last write to include it: the cached items are current and can
   * be returned as they are. Otherwise a page must be read again from the table.
   */
  settled: boolean;
}

interface CachedIndex extends PatientIndex {
  version: number;
  reloadAfter: number;
}

const cache = new Map<string, CachedIndex>();
const loading = new Map<string, Promise<CachedIndex>>();

/**
 * The patients of one status in name order, kept in this Lambda instance's memory between
 * requests. Each call costs one strongly consistent GetItem of the practice's patient index
 * version; only a changed version (some patient was written) costs a Query of the gsi1
 * partition. See docs/access-patterns.md.
 */
export async function patientIndex(practiceId: string, status: PatientStatus, now: () => number = Date.now): Promise<PatientIndex> {
  const current = await readPatientIndexVersion(practiceId);
  const key = `${practiceId}|${status}`;
  const hit = cache.get(key);
  if (hit && hit.version === current.version && (hit.settled || now() < hit.reloadAfter)) return hit;

  let pending = loading.get(key);
  if (!pending) {
    const startedAt = now();
    pending = queryPatientsByName(practiceId, status)
      .then((patients) => {
        const loaded: CachedIndex = {
          version: current.version,
          entries: patients.map(preparePatient),
          settled: startedAt - current.changedAt >= INDEX_SETTLE_MS,
          reloadAfter: current.changedAt + INDEX_SETTLE_MS,
        };
        const existing = cache.get(key);
        if (!existing || existing.version <= loaded.version) cache.set(key, loaded);
        return loaded;
      })
      .finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/** For tests that reset the table between cases. */
export function clearPatientIndexCache(): void {
  cache.clear();
}
