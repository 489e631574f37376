import { readPatientIndexVersion, queryPatientIndex, type PatientIndexEntry, type PatientStatus } from './patient-repository.js';

/**
 * GSI reads are eventually consistent: a reload that starts within this long after the last
 * patient write may miss it, so such a load is used only until this much time has passed since
 * the write and then reloaded once. Locally the index is updated synchronously.
 */
export const INDEX_SETTLE_MS = 1000;

interface CachedIndex {
  version: number;
  entries: PatientIndexEntry[];
  /** Loaded long enough after the last write to include it. */
  settled: boolean;
  reloadAfter: number;
}

const cache = new Map<string, CachedIndex>();
const loading = new Map<string, Promise<CachedIndex>>();

/**
 * The name-ordered search fields of every patient of one status, kept in this Lambda
 * instance's memory between requests. Each call costs one strongly consistent GetItem of the
 * practice's patient index version; only a changed version (some patient was written) costs a
 * Query of the gsi1 partition. See docs/access-patterns.md.
 */
export async function patientIndex(practiceId: string, status: PatientStatus, now: () => number = Date.now): Promise<PatientIndexEntry[]> {
  const current = await readPatientIndexVersion(practiceId);
  const key = `${practiceId}|${status}`;
  const hit = cache.get(key);
  if (hit && hit.version === current.version && (hit.settled || now() < hit.reloadAfter)) return hit.entries;

  let pending = loading.get(key);
  if (!pending) {
    const startedAt = now();
    pending = queryPatientIndex(practiceId, status)
      .then((entries) => {
        const loaded: CachedIndex = {
          version: current.version,
          entries,
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
  return (await pending).entries;
}

/** For tests that reset the table between cases. */
export function clearPatientIndexCache(): void {
  cache.clear();
}
