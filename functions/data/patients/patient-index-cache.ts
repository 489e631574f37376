import type { Patient } from '../../../shared/patients/patient-schema.js';
import { preparePatient, type PreparedPatient } from '../../../shared/patients/patient-search.js';
import {
  getPatientsByIds,
  patientNameSortKey,
  patientsByNamePartition,
  queryPatientsByName,
  readPatientChanges,
  readPatientIndexVersion,
  type PatientIndexVersion,
  type PatientStatus,
} from './patient-repository.js';

/**
 * GSI reads are eventually consistent: a reload that starts within this long after the last
 * patient write may miss it, so such a load is used only until this much time has passed since
 * the write and then reloaded once. Locally the index is updated synchronously.
 */
export const INDEX_SETTLE_MS = 1000;

/**
 * The most versions a cached index catches up by reading the changes (one Query of this many
 * small items and one BatchGetItem of the changed patients); further behind, it reloads in full.
 */
export const CATCH_UP_MAX = 100;

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
 * version. A changed version (some patients were written) costs a Query of the change items since
 * the cached version and a consistent BatchGetItem of those patients, which are patched into the
 * cached list; only a cold cache, a bulk load or more than CATCH_UP_MAX changes cost a Query of
 * the whole gsi1 partition. See docs/access-patterns.md.
 */
export async function patientIndex(practiceId: string, status: PatientStatus, now: () => number = Date.now): Promise<PatientIndex> {
  const current = await readPatientIndexVersion(practiceId);
  const key = `${practiceId}|${status}`;
  const hit = cache.get(key);
  if (hit && hit.version === current.version && (hit.settled || now() < hit.reloadAfter)) return hit;

  let pending = loading.get(key);
  if (!pending) {
    pending = refresh(practiceId, status, hit, current, now)
      .then((loaded) => {
        const existing = cache.get(key);
        if (!existing || existing.version <= loaded.version) cache.set(key, loaded);
        return loaded;
      })
      .finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

async function refresh(
  practiceId: string,
  status: PatientStatus,
  hit: CachedIndex | undefined,
  current: PatientIndexVersion,
  now: () => number,
): Promise<CachedIndex> {
  // A list loaded within the settle time of a write may lack it; past that time only a full load completes it.
  const usable = hit && hit.version < current.version && (hit.settled || now() < hit.reloadAfter);
  const caughtUp = usable ? await catchUp(practiceId, status, hit, current) : null;
  return caughtUp ?? fullLoad(practiceId, status, current, now);
}

async function fullLoad(practiceId: string, status: PatientStatus, current: PatientIndexVersion, now: () => number): Promise<CachedIndex> {
  const startedAt = now();
  const patients = await queryPatientsByName(practiceId, status);
  return {
    version: current.version,
    entries: patients.map(preparePatient),
    settled: startedAt - current.changedAt >= INDEX_SETTLE_MS,
    reloadAfter: current.changedAt + INDEX_SETTLE_MS,
  };
}

/**
 * The cached list brought from its version to the current one by what each version in between
 * changed, or null when that cannot be known from the change items: too many, some expired, or a
 * bulk load among them. The changed patients are read consistently from the table, so the patched
 * entries are current whatever the index lags; the rest keep the cached list's settledness.
 */
async function catchUp(practiceId: string, status: PatientStatus, hit: CachedIndex, current: PatientIndexVersion): Promise<CachedIndex | null> {
  const behind = current.version - hit.version;
  if (behind > CATCH_UP_MAX) return null;
  const changes = await readPatientChanges(practiceId, hit.version, current.version, behind);
  if (changes.length !== behind) return null;
  const ids = new Set<string>();
  for (const change of changes) {
    if (change.bulk) return null;
    ids.add(change.patientId);
  }
  const patients = await getPatientsByIds(practiceId, [...ids]);
  return { ...hit, version: current.version, entries: patched(hit.entries, ids, patients, status) };
}

/** Drops every changed patient from the list and inserts those now of this status at their name's place. */
function patched(
  entries: readonly PreparedPatient<Patient>[],
  changed: ReadonlySet<string>,
  patients: readonly Patient[],
  status: PatientStatus,
): PreparedPatient<Patient>[] {
  const list = entries.filter((e) => !changed.has(e.patient.id));
  const partition = patientsByNamePartition(status);
  for (const patient of patients) {
    if (patientsByNamePartition(patient.status) !== partition) continue;
    const key = nameKey(patient);
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (Buffer.compare(nameKey(list[mid]!.patient), key) < 0) low = mid + 1;
      else high = mid;
    }
    list.splice(low, 0, preparePatient(patient));
  }
  return list;
}

/** The gsi1 sort key as DynamoDB orders it (UTF-8 bytes), so a patched list keeps the order a full load has. */
const nameKey = (p: Patient) => Buffer.from(patientNameSortKey(p), 'utf8');

/** For tests that reset the table between cases. */
export function clearPatientIndexCache(): void {
  cache.clear();
}
